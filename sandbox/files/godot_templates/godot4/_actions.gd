# Adds the input actions the car reads where the project's Input Map lacks them; shared
# by every template.

func _add_missing_actions() -> void:
	for action in ACTIONS:
		if not InputMap.has_action(action):
			InputMap.add_action(action)
			for key in ACTIONS[action]:
				# by the key's place on the keyboard, so W A S D drive on any layout
				var event := InputEventKey.new()
				event.physical_keycode = key
				InputMap.action_add_event(action, event)
