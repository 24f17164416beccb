#!/bin/sh
# Every picture in screenshots/, made by the sandbox's own screenshot command (the tracks by `track info --png`).
# Run from the repository root: sh tools/make_screenshots.sh
set -e
PYTHON=${PYTHON:-.venv/bin/python}  # the interpreter the sandbox is installed in
shot() { QT_QPA_PLATFORM=offscreen "$PYTHON" -m sandbox screenshot "$@"; }
for p in drift recipe_defaults go_kart monster_corvette_c5; do shot --preset $p --out screenshots/$p.png --drive 6; done
for p in ackermann_van bicycle_drift_illusion; do shot --preset $p --out screenshots/$p.png --drive 4; done
shot --preset rigid_body_seed --out screenshots/rigid_body_seed.png --drive 5
shot --preset recipe_2020 --out screenshots/recipe_2020.png --drive 6
shot --preset drift --ghost recipe_defaults --ghost go_kart --ghost ice --out screenshots/compare_drift_vs_recipe.png --drive 4 --zoom 0.35
shot --preset monster_corvette_c5 --dialog godot-scene --drive 1 --out screenshots/godot_export_scene.png
shot --preset drift --dialog godot-script --drive 1 --out screenshots/godot_export_script.png
# Update my script: a user's typed Godot 4 car (three of its numbers their own) taking the recipe's values
mine=$(mktemp -d)/my_car.gd
sed -e 's/= 70.0/= 64.0/; s/engine_power: float = 900.0/engine_power: float = 700.0/' \
    -e 's/traction_fast: float = 2.5/traction_fast: float = 1.5/' tests/data/godot_scripts/typed_godot4_port.gd > "$mine"
shot --preset recipe_defaults --dialog update-script --script "$mine" --out screenshots/godot_update_script.png
# a drive recorded in the game (tools/make_game_recording.py) replayed over the recipe's car, then fitted
game=tests/data/recordings/game_arcade.csv
shot --preset recipe_defaults --recording $game --drive 8 --zoom 0.5 --out screenshots/game_recording.png
shot --preset recipe_defaults --recording $game --drive 8 --zoom 0.5 --dialog fit --out screenshots/fit_dialog.png
# the same drive where the car glanced a wall: the stretch the model cannot explain left out and shaded
shot --preset recipe_defaults --recording tests/data/recordings/game_arcade_wall.csv --drive 26 --zoom 0.5 --dialog fit --out screenshots/fit_dialog_wall.png
shot --preset recipe_defaults --tab tune --drive 3 --size 1440x900 --out screenshots/sizes/recipe_tune_1440x900.png
shot --preset monster_corvette_c5 --tab sensitivity --drive 2 --size 1440x900 --out screenshots/sizes/corvette_sensitivity_1440x900.png
shot --preset drift --track club_circuit --tab laps --size 1400x900 --out screenshots/laps_tab.png
shot --preset monster_corvette_c5 --tab tyres --drive 3 --out screenshots/tyres_corvette.png
shot --preset rigid_body_road --tab tyres --drive 5 --out screenshots/tyres_rigid_body.png
shot --preset monster_corvette_c5 --drive 3.2 --tab gg --out screenshots/gg_corvette.png
shot --preset rigid_body_road --drive 3.4 --tab gg --out screenshots/gg_rigid_body.png
shot --preset drift --track club_circuit --driver --drive 14 --zoom-to-track --size 1440x900 --out screenshots/driver_club_circuit.png
# each tab, the compare view and the sweep heatmap at three window sizes
for size in 1024x640 1440x900 1920x1080; do
  shot --preset monster_corvette_c5 --size $size --tab tuning --out screenshots/sizes/corvette_tuning_$size.png
  shot --preset monster_corvette_c5 --ghost monster_corvette_abs --size $size --tab metrics --out screenshots/sizes/corvette_metrics_$size.png
  shot --preset monster_corvette_c5 --size $size --tab sweep --out screenshots/sizes/corvette_sweep_$size.png
  shot --preset monster_corvette_c5 --size $size --tab tune --drive 3 --out screenshots/sizes/corvette_tune_$size.png
  shot --preset monster_corvette_c5 --size $size --tab link --drive 3 --out screenshots/sizes/corvette_link_$size.png
  shot --preset drift --ghost recipe_defaults --ghost ice --size $size --tab metrics --drive 7 --out screenshots/sizes/compare_drift_$size.png
done
# each built-in track, drawn by `track info --png` (docs/tracks.md)
for t in open_field skid_pad slalom drag_strip parking_lot club_circuit; do
  QT_QPA_PLATFORM=offscreen "$PYTHON" -m sandbox track info $t --png screenshots/tracks/$t.png > /dev/null
done
# the window on a track (docs/tracks.md, "In the window")
shot --preset go_kart --track club_circuit --zoom-to-track --size 1440x900 --out screenshots/track_club_circuit.png
shot --preset recipe_defaults --track parking_lot --drive 2 --zoom-to-track --size 1440x900 --out screenshots/track_parking_lot.png
# a racing game's steering: the Steering feel section with its curve, the driver at the wheel (docs/models.md)
shot --preset monster_racing_feel --track club_circuit --driver --drive 14 --section "Steering feel" --out screenshots/monster_racing_feel.png
