"""The rubric's declarative checks (``courtroom.checks``) run as detectives, one per kind."""
