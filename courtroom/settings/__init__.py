"""The settings of an audit: one declared schema, the file, the base commit and the merge.

Re-exports nothing: importing ``settings.schema`` must not load the merge and its git reads.
"""
