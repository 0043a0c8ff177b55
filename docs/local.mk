# docs/
dist_doc_DATA += docs/guest.md
