"""The GitHub target: REST client, event and inputs, annotations, sticky comment state,
and the Action entry point."""
