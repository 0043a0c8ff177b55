# docs/
dist_doc_DATA += docs/output.md
