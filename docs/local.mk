# docs/
dist_doc_DATA += docs/output.md
dist_doc_DATA += docs/traces.md
