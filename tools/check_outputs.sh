#!/bin/sh
# Full disk, devices, links and inputs against every kind of output the CLI writes.
# Needs root (a private mount namespace with a 200 KiB tmpfs); prints one line a case.
#   sudo PY=.venv/bin/python sh tools/check_outputs.sh   (PY: a Python with the sandbox installed)
set -u
PY=${PY:-python3}
PRESET=$(cd "$(dirname "$0")/.." && pwd)/sandbox/files/builtin_presets/recipe_defaults.json
export QT_QPA_PLATFORM=offscreen
unshare --mount --propagation private sh -s "$PY" "$PRESET" <<'INNER'
PY=$1; PRESET=$2
D=$(mktemp -d); mount -t tmpfs -o size=200k tmpfs "$D" || { echo "cannot mount a tmpfs"; exit 1; }
for out in c.png c.svg c.csv shot.png; do
  printf 'old\n' > "$D/$out"; dd if=/dev/zero of="$D/fill" bs=4k 2>/dev/null
  case $out in shot.png) cmd="screenshot --drive 0";; *) cmd=curves;; esac
  $PY -m sandbox $cmd --preset "$PRESET" --out "$D/$out" 2>"$D/../err.txt"; code=$?
  echo "full disk, $cmd --out $out: exit $code; old file now: $(cat "$D/$out" | head -c 20); left over: $(ls -A "$D" | grep -c tmp) temporary files; $(head -c 150 "$D/../err.txt")"
  rm -f "$D/fill"
done
umount "$D"
mknod "$D/null" c 1 3
$PY -m sandbox curves --preset "$PRESET" --out "$D/null" 2>&1 | head -c 200; echo " (still a device: $(stat -c %F "$D/null"))"
printf 'x' > "$D/real.csv"; ln -s real.csv "$D/link.csv"; ln "$D/real.csv" "$D/hard.csv"; chmod 600 "$D/real.csv"
$PY -m sandbox curves --preset "$PRESET" --out "$D/link.csv"
echo "symlink: $(stat -c %F "$D/link.csv"), target starts $(head -c 14 "$D/real.csv"), hard link same file: $([ "$D/real.csv" -ef "$D/hard.csv" ] && echo yes || echo no), mode $(stat -c %a "$D/real.csv")"
cp "$PRESET" "$D/p.json"
$PY -m sandbox curves --preset "$D/p.json" --out "$D/p.json" 2>&1 | head -c 200; echo " (input intact: $(cmp -s "$PRESET" "$D/p.json" && echo yes || echo no))"
INNER
