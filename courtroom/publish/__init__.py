"""Publishing a verdict: the protocol every target implements, and the targets."""
