#!/usr/bin/env bash
# Regenerates the HELM run outputs under benchmark_output/ with HELM itself, offline.
#
#   bash tests/data/harness/helm/make_fixture.sh            # venv in /tmp/vhelm (rebuilt)
#   VENV=/some/where bash tests/data/harness/helm/make_fixture.sh
#
# Needs python3.11 and PyPI (for the venv) only; HELM runs fully offline.
# See README.md for what is real and what is synthetic.
set -euo pipefail

HERE="$(cd "$(dirname "$0")" && pwd)"
VENV="${VENV:-/tmp/vhelm}"
HELM_VERSION="0.5.16"

# 1. Environment: crfm-helm without its declared deps (torch, torchvision, transformers are
#    never imported by these runs), plus exactly the packages that import/run needs.
rm -rf "$VENV"
python3 -m venv "$VENV"
"$VENV/bin/pip" install -q --upgrade pip
"$VENV/bin/pip" install -q --no-deps -r "$HERE/helm_env_lock.txt"
"$VENV/bin/pip" install -q --no-deps "crfm-helm==$HELM_VERSION"

# 2. Run HELM in a scratch directory (its prod_env/ holds our two synthetic model
#    deployments; the client plugin helm_fixture_clients.py is found through PYTHONPATH).
WORK="$(mktemp -d)"
trap 'rm -rf "$WORK"' EXIT
cp -r "$HERE/prod_env" "$WORK/prod_env"
cd "$WORK"
export PYTHONPATH="$HERE" PYTHONDONTWRITEBYTECODE=1

# Suite "paired": two models, the same 40 test instances of simple_mcqa, one train trial.
"$VENV/bin/helm-run" \
  --run-entries "simple_mcqa:model=fixture/parity-a" "simple_mcqa:model=fixture/parity-b" \
  --suite paired --max-eval-instances 40 --num-train-trials 1
# Suite "trials_perturbation": same two models, 6 instances, 2 train trials, and HELM's
# canonical robustness perturbation (mild_mix): original + perturbed copy of every instance.
"$VENV/bin/helm-run" \
  --run-entries "simple_mcqa:model=fixture/parity-a,data_augmentation=robustness" \
                "simple_mcqa:model=fixture/parity-b,data_augmentation=robustness" \
  --suite trials_perturbation --max-eval-instances 6 --num-train-trials 2
# helm-summarize writes instances.json / display_predictions.json next to each run.
"$VENV/bin/helm-summarize" --suite paired
"$VENV/bin/helm-summarize" --suite trials_perturbation

# 3. Copy what a reader needs, keeping HELM's layout. Dropped (size, not needed): each
#    run's display_requests.json (same requests as scenario_state.json) and the suite-level
#    schema.json, groups.json, groups_metadata.json, runs.json, costs.json written by
#    helm-summarize, and the empty eval_cache/ folders.
rm -rf "$HERE/benchmark_output"
for suite in paired trials_perturbation; do
  src="$WORK/benchmark_output/runs/$suite"
  dst="$HERE/benchmark_output/runs/$suite"
  mkdir -p "$dst"
  cp "$src/run_specs.json" "$src/runs_to_run_suites.json" "$src/summary.json" "$dst/"
  for run in "$src"/simple_mcqa:*; do
    name="$(basename "$run")"
    mkdir -p "$dst/$name"
    for f in run_spec.json scenario.json scenario_state.json stats.json per_instance_stats.json \
             instances.json display_predictions.json; do
      cp "$run/$f" "$dst/$name/"
    done
  done
done
"$VENV/bin/python" --version
"$VENV/bin/python" -c "import importlib.metadata as m; print('crfm-helm', m.version('crfm-helm'))"
du -sh "$HERE/benchmark_output"
