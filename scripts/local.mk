# scripts/: set-up, quick start, checks.
EXTRA_DIST += scripts/bootstrap.sh scripts/quickstart.sh scripts/check.sh \
	scripts/docs-params.sh scripts/pgo-train.sh scripts/compare-report.sh
EXTRA_DIST += scripts/cli-docs.sh
