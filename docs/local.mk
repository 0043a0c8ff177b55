# docs/
EXTRA_DIST += docs/models/nvme-device.md docs/validation.md
