"""What can I trust, per scenario: every scenario of the configuration (yours too) through the comparisons a
researcher makes - two runs on one test set, approaches over seeds - with the size and power of each test at the
scenario's own parameters, gathered on one page with the Reimers evaluations and the runs and items needed."""
