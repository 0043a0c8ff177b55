# docs/
dist_doc_DATA += docs/output.md
EXTRA_DIST += docs/job-files.md
EXTRA_DIST += docs/models/nvme-device.md docs/validation.md
EXTRA_DIST += docs/HACKING.md
dist_doc_DATA += docs/guest.md
dist_doc_DATA += docs/traces.md
