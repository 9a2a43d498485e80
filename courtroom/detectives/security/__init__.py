"""The security detective: bandit, tree-sitter rules, taint and caller analysis."""
