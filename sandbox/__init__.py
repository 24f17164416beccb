"""car-sandbox: a desktop tuning sandbox for 2D top-down car physics."""

__version__ = "0.1.0"
