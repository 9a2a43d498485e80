"""The court phase around contested criteria: the session (plea, hearing,
remand, mistrial) and the pure rules it asks."""
