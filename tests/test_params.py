"""Parameter declarations: complete, sensible, and the docs' table generated from them."""

import re
from pathlib import Path

from sandbox.cli import params_table_markdown
from sandbox.physics.models import MODELS

MODELS_DOC = Path(__file__).parent.parent / "docs" / "models.md"


def test_every_parameter_is_fully_declared():
    for model in MODELS.values():
        names = [p.name for p in model.PARAMS]
        assert len(names) == len(set(names))
        for p in model.PARAMS:
            assert p.label and p.unit and p.help
            assert p.min <= p.default <= p.max and p.step > 0
            # the default is reachable on the slider's step grid
            assert p.snap(p.default) == p.default


def test_docs_parameter_table_is_the_generated_one():
    text = MODELS_DOC.read_text(encoding="utf-8")
    block = re.search(r"<!-- params:start -->\n(.*?)<!-- params:end -->", text, re.S)
    assert block, "docs/models.md lacks the generated parameter table markers"
    assert block.group(1).strip() == params_table_markdown().strip()


def test_no_model_has_two_parameters_with_the_same_label():
    """A label is what the sliders, the Tune tab and the exported script show: two the
    same (or the same but for the end a narrow column cuts, as the Corvette's front and
    rear cornering stiffness once were) cannot be told apart."""
    for model in MODELS.values():
        labels = [p.label.casefold() for p in model.PARAMS]
        assert len(labels) == len(set(labels)), model.NAME
        sides = [p.label for p in model.PARAMS if p.label.endswith((" front", " rear"))]
        assert sides == [], f"{model.NAME}: say the axle first (as in 'Front brake force'): {sides}"
