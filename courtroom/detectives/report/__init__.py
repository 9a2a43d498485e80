"""Detectives that read the PDF report: text, claims, concepts, quotes, diagrams."""
