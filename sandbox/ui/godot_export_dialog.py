"""File → Export → Godot: the car as a Godot 3 or 4 script, or a scene with it (and, if
asked, the link node as the car's child), with the script shown as it will be written and
the scene's car drawn as Godot will draw it."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QPointF, QRectF, Qt
from PySide6.QtGui import QColor, QFontDatabase, QGuiApplication, QPainter, QPen, QPolygonF
from PySide6.QtWidgets import (
    QButtonGroup,
    QCheckBox,
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QDoubleSpinBox,
    QFormLayout,
    QHBoxLayout,
    QLabel,
    QMessageBox,
    QPlainTextEdit,
    QRadioButton,
    QSplitter,
    QVBoxLayout,
    QWidget,
)

from ..errors import UserError, printable
from ..files.godot import DIALECTS, PX_PER_METRE_RANGE, ROUNDED_NOTE, export_script, off_step, save_script
from ..files.godot_import import declarations, parameter_names
from ..files.godot_scene import BODY_COLOUR, CABIN_COLOUR, WHEEL_COLOUR, ScriptsInTheWay, car_outline, save_scene
from ..files.presets import Preset

VERSIONS = ((4, f"Godot 4 ({DIALECTS[4]['BODY']})"), (3, f"Godot 3 ({DIALECTS[3]['BODY']})"))


def save_scene_asking(parent, preset: Preset, path, godot: int, px_per_metre: float, with_link: bool = False):
    """`save_scene`, asking first (Replace / Cancel) when a script beside the scene has
    other text (your own car.gd, say); the paths written, or [] when not replaced."""
    try:
        return list(save_scene(preset, path, godot, px_per_metre, with_link))
    except ScriptsInTheWay as exc:
        buttons = QMessageBox.StandardButton
        box = QMessageBox(
            QMessageBox.Icon.Question,
            "Replace the script beside the scene?",
            f"{', '.join(printable(script.name) for script in exc.scripts)}: already there beside the scene, "
            "with other text than the export writes (your own script, or one edited since it was exported).",
            buttons.Yes | buttons.Cancel,
            parent,
        )
        box.setInformativeText(
            "Replace keeps the old one as a backup beside it (NAME.gd.bak, or the next free .bak2, .bak3, …); "
            "Cancel writes nothing."
        )
        box.button(buttons.Yes).setText("Replace")
        box.setDefaultButton(buttons.Cancel)
        if box.exec() != buttons.Yes:
            return []
    return list(save_scene(preset, path, godot, px_per_metre, with_link, replace=True))


def _rgb(colour: tuple[float, float, float]) -> QColor:
    return QColor.fromRgbF(*colour)


class ScenePreview(QWidget):
    """The exported scene's car: its polygons and collision box, in Godot's pixels."""

    def __init__(self, parent=None):
        super().__init__(parent)
        self.shapes: dict[str, list[tuple[float, float]]] = {}
        self.setMinimumSize(220, 160)
        self.setToolTip(
            "The car as the exported scene draws it: body, cabin (at the front) and wheels, "
            "and its collision box (dashed), in Godot's pixels"
        )

    def set_shapes(self, shapes: dict[str, list[tuple[float, float]]]) -> None:
        self.shapes = shapes
        self.update()

    def paintEvent(self, event) -> None:
        painter = QPainter(self)
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        painter.fillRect(self.rect(), self.palette().base())
        if not self.shapes:
            return
        xs = [x for points in self.shapes.values() for x, _ in points]
        ys = [y for points in self.shapes.values() for _, y in points]
        width, height = max(xs) - min(xs), max(ys) - min(ys)
        text_room = 2.5 * painter.fontMetrics().height()
        scale = min((self.width() - 40) / width, (self.height() - 40 - text_room) / height)
        painter.translate(self.width() / 2, (self.height() - text_room) / 2)
        painter.scale(scale, scale)
        painter.setPen(Qt.PenStyle.NoPen)
        for name, points in self.shapes.items():
            colour = BODY_COLOUR if name == "Body" else CABIN_COLOUR if name == "Cabin" else WHEEL_COLOUR
            painter.setBrush(_rgb(colour))
            painter.drawPolygon(QPolygonF([QPointF(x, y) for x, y in points]))
        box = self.shapes["Body"]
        pen = QPen(self.palette().text().color(), 0, Qt.PenStyle.DashLine)
        painter.setPen(pen)
        painter.setBrush(Qt.BrushStyle.NoBrush)
        painter.drawRect(QRectF(QPointF(*box[0]), QPointF(*box[2])))
        painter.resetTransform()
        painter.setPen(self.palette().text().color())
        line = painter.fontMetrics().height()
        painter.drawText(
            QRectF(0, self.height() - text_room, self.width(), line),
            Qt.AlignmentFlag.AlignCenter,
            f"collision box {box[2][0] - box[0][0]:.4g} × {box[2][1] - box[0][1]:.4g} px",
        )
        painter.drawText(
            QRectF(0, self.height() - text_room + line, self.width(), line),
            Qt.AlignmentFlag.AlignCenter,
            "front → (+x, the node's rotation 0)",
        )


class GodotExportDialog(QDialog):
    """Choose Godot 3 or 4, a script or a scene, and the pixels per metre; see the
    script and the scene's car; copy the script or save."""

    def __init__(
        self,
        preset: Preset,
        px_per_metre: float,
        godot: int = 4,
        scene: bool = False,
        parent=None,
        ask_path=None,
        on_saved=None,
    ):
        super().__init__(parent)
        self.preset = preset
        self.ask_path, self.on_saved = ask_path, on_saved
        self.setWindowTitle(f"Export to Godot: {preset.name}")
        self.version = QComboBox()
        for number, label in VERSIONS:
            self.version.addItem(label, number)
        self.version.setCurrentIndex(0 if godot == 4 else 1)
        self.version.setToolTip("Godot 4 scripts extend CharacterBody2D; Godot 3 scripts KinematicBody2D")
        self.as_script = QRadioButton("Script (.gd)")
        self.as_scene = QRadioButton("Scene with its script (.tscn + .gd)")
        self.as_script.setToolTip("The car's script alone: attach it to a body of your own")
        self.as_scene.setToolTip(
            "A scene to open and play: the body with the script, a collision box, the car "
            "drawn and a camera; its script is written beside it"
        )
        kinds = QButtonGroup(self)
        kinds.addButton(self.as_script)
        kinds.addButton(self.as_scene)
        (self.as_scene if scene else self.as_script).setChecked(True)
        kind_row = QHBoxLayout()
        kind_row.addWidget(self.as_script)
        kind_row.addWidget(self.as_scene)
        kind_row.addStretch(1)
        self.with_link = QCheckBox("Include the link node")
        self.with_link.setToolTip(
            "The link node in the scene, a child of the car (its script <scene>_link.gd beside it): "
            "the sandbox sees and tunes the car while the game runs (set its token to the one the "
            "Link tab shows); as export-godot --scene --with-link"
        )
        self.scale = QDoubleSpinBox()
        low, high, step = PX_PER_METRE_RANGE
        self.scale.setRange(low, high)
        self.scale.setSingleStep(step)
        self.scale.setDecimals(1)
        self.scale.setSuffix(" px/m")
        self.scale.setValue(px_per_metre)
        metric = preset.model.LENGTH_UNIT == "m"
        self.scale.setEnabled(metric)
        self.scale.setToolTip(
            "The script's pixels_per_metre: the model computes in metres and moves the node this many pixels for each"
            if metric
            else "This model works in pixels: the script moves the node by its own numbers"
        )
        form = QFormLayout()
        form.addRow("Version", self.version)
        form.addRow("Write", kind_row)
        form.addRow("", self.with_link)
        form.addRow("Pixels per metre", self.scale)

        self.preview = ScenePreview()
        self.text = QPlainTextEdit()
        self.text.setReadOnly(True)
        self.text.setFont(QFontDatabase.systemFont(QFontDatabase.SystemFont.FixedFont))
        self.text.setLineWrapMode(QPlainTextEdit.LineWrapMode.NoWrap)
        self.text.setTabStopDistance(4 * self.text.fontMetrics().horizontalAdvance(" "))
        self.text.setToolTip("The script as it will be written")
        split = QSplitter()
        split.addWidget(self.preview)
        split.addWidget(self.text)
        split.setStretchFactor(1, 3)
        split.setSizes([300, 680])

        self.buttons = QDialogButtonBox()
        self.copy_button = self.buttons.addButton("&Copy script", QDialogButtonBox.ButtonRole.ActionRole)
        self.copy_button.setToolTip("Put the script on the clipboard (Ctrl+Shift+C in the main window)")
        self.save_button = self.buttons.addButton("&Save…", QDialogButtonBox.ButtonRole.AcceptRole)
        self.buttons.addButton(QDialogButtonBox.StandardButton.Close)
        self.copy_button.clicked.connect(self.copy)
        self.save_button.clicked.connect(self._save_clicked)
        self.buttons.rejected.connect(self.reject)
        self.note = QLabel()
        self.note.setWordWrap(True)

        layout = QVBoxLayout(self)
        layout.addLayout(form)
        layout.addWidget(split, 1)
        layout.addWidget(self.note)
        layout.addWidget(self.buttons)
        self.version.currentIndexChanged.connect(self.refresh)
        self.as_scene.toggled.connect(self.refresh)
        self.with_link.toggled.connect(self.refresh)
        self.scale.valueChanged.connect(self.refresh)
        self.resize(980, 640)
        self.refresh()

    @property
    def godot(self) -> int:
        return int(self.version.currentData())

    @property
    def scene(self) -> bool:
        return self.as_scene.isChecked()

    @property
    def linked(self) -> bool:
        """A scene with the link node in it (the box means nothing for a script alone)."""
        return self.scene and self.with_link.isChecked()

    def script_text(self) -> str:
        return export_script(self.preset, self.godot, self.scale.value())

    def refresh(self) -> None:
        text = self.script_text()
        scroll = self.text.verticalScrollBar().value()
        self.text.setPlainText(text)
        self.text.verticalScrollBar().setValue(scroll)
        self.preview.set_shapes(car_outline(self.preset, self.scale.value()))
        lines = text.count("\n") + 1
        declared = {d.name for d in declarations(text)}
        variables = sum(1 for name in parameter_names(self.preset.model) if name in declared)
        self.with_link.setEnabled(self.scene)
        what = "a scene (.tscn) and its script (.gd) beside it" if self.scene else "the script (.gd)"
        if self.linked:
            what = "a scene (.tscn) with the link node as the car's child, the two scripts (.gd, _link.gd) beside it"
        rounded = off_step(self.preset)
        self.note.setText(
            f"{self.preset.model.TITLE}, preset {self.preset.name!r}: {what} for Godot {self.godot}; "
            f"the script is {lines} lines, {variables} tuning variables."
            + (f"\nV{ROUNDED_NOTE[1:]}: {', '.join(rounded.values())}." if rounded else "")
        )

    def copy(self) -> None:
        QGuiApplication.clipboard().setText(self.script_text())
        self.note.setText("The script is on the clipboard.")

    def save(self, path: str | Path) -> list[Path]:
        """Write the script, or the scene and its script, at `path`; the paths written
        ([] when a script in the scene's way is not to be replaced)."""
        if self.scene:
            return save_scene_asking(self, self.preset, path, self.godot, self.scale.value(), self.linked)
        save_script(self.preset, path, self.godot, self.scale.value())
        return [Path(path)]

    def _save_clicked(self) -> None:
        if self.ask_path is None:
            return
        suffix = ".tscn" if self.scene else ".gd"
        path = self.ask_path(self.scene)
        if not path:
            return
        path = path if path.endswith(suffix) else path + suffix
        try:
            written = self.save(path)
        except UserError as exc:
            self.note.setText(f"Not saved: {exc}")
            return
        if not written:
            self.note.setText("Not saved: the script beside the scene was kept.")
            return
        if self.on_saved is not None:
            self.on_saved(self, written)
        self.accept()
