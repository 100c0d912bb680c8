"""Source readers: the only code that opens files of a spec tree."""
