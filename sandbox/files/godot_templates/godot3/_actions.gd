# Adds the input actions the car reads where the project's Input Map lacks them; shared
# by every template.

func _add_missing_actions():
	for action in ACTIONS:
		if not InputMap.has_action(action):
			InputMap.add_action(action)
			for key in ACTIONS[action]:
				var event = InputEventKey.new()
				event.scancode = key
				InputMap.action_add_event(action, event)
