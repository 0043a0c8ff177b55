# docs/
EXTRA_DIST += docs/job-files.md
