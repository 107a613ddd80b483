"""Comparing approaches over seeds x items: the validation study of which test answers which claim."""
