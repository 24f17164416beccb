"""The Qt window. Everything here may import Qt; nothing outside `sandbox/ui` does."""
