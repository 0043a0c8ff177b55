# docs/
dist_doc_DATA += docs/output.md
EXTRA_DIST += docs/job-files.md
