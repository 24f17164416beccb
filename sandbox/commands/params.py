"""`params`: every parameter declaration of every model, as text, JSON or the Markdown
table of docs/models.md."""

from __future__ import annotations

import json


def params_table_markdown() -> str:
    from ..physics.models import MODELS

    lines = []
    for model in MODELS.values():
        lines += [
            f"**{model.TITLE}** (`{model.NAME}`)",
            "",
            "| name | label | unit | default | min | max | step | what it does |",
            "|---|---|---|---|---|---|---|---|",
        ]
        for p in model.PARAMS:
            if p.is_bool:
                default = "true" if p.default else "false"
                lines.append(f"| `{p.name}` | {p.label} | {p.unit} | {default} | – | – | – | {p.help} |")
            elif p.is_choice:
                default = p.written(p.default)
                lines.append(f"| `{p.name}` | {p.label} | {p.range_text()} | {default} | – | – | – | {p.help} |")
            else:
                lines.append(
                    f"| `{p.name}` | {p.label} | {p.unit} | {p.default:g} | {p.min:g} | {p.max:g} | "
                    f"{p.step:g} | {p.help} |"
                )
            if p.variant is not None:
                v = p.under({p.variant.when: True})
                lines.append(
                    f"| ↳ with `{p.variant.when}` | | {v.unit} | {v.default:g} | {v.min:g} | {v.max:g} | "
                    f"{v.step:g} | {v.help} |"
                )
        lines.append("")
    return "\n".join(lines)


def run(args) -> None:
    from ..physics.models import MODELS

    if args.json:
        print(
            json.dumps(
                {name: [p.as_dict() for p in m.PARAMS] for name, m in MODELS.items()}, indent=2, ensure_ascii=False
            )
        )
    elif args.markdown:
        print(params_table_markdown(), end="")
    else:
        for name, model in MODELS.items():
            print(f"{name}: {model.TITLE}")
            for p in model.PARAMS:
                span = f"[{p.range_text()}]" if not p.is_number else f"[{p.min:g} … {p.max:g}, step {p.step:g}]"
                default = str(p.default).lower() if p.is_bool else p.written(p.default) if p.is_choice else p.default
                print(
                    f"  {p.name:18s} {format(default, 'g') if p.is_number else default:>8s} "
                    f"{p.unit:9s} {span}  {p.help}"
                )
                if p.variant is not None:
                    v = p.under({p.variant.when: True})
                    print(
                        f"  {'  with ' + p.variant.when:18s} {format(v.default, 'g'):>8s} {v.unit:9s} "
                        f"[{v.min:g} … {v.max:g}, step {v.step:g}]  {v.help}"
                    )
