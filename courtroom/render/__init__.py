"""Render a Verdict: the view model and the Markdown report, comment and check run."""
