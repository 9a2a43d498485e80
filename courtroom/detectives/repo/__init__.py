"""Detectives that read the repository: workspace, git history, source, graph, tools."""
