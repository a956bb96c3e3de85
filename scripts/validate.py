#!/usr/bin/env python3
"""Scores scalescope-cli against published measurements (shared/validation).

For each row of expected.csv, runs `scalescope-cli simulate FILE --json`, reads the metric
(tokens_per_s_per_gpu = tokens_per_s / gpus), and reports error = predicted / expected - 1,
the mean absolute percentage error (MAPE) and the worst case.

  scripts/validate.py --cli build/app/scalescope-cli --validation ../shared/validation
      [--markdown OUT.md] [--update-doc docs/model.md] [--max-mape 10] [--max-error 25]

With --update-doc, the table between the markers
  <!-- validation-table:begin --> and <!-- validation-table:end -->
in that file is replaced, so docs/model.md never goes stale. Exits 1 when a limit is given
and exceeded, 2 when the inputs cannot be read.
"""
import argparse
import csv
import json
import os
import subprocess
import sys

BEGIN = "<!-- validation-table:begin -->"
END = "<!-- validation-table:end -->"


def metric_value(result, metric):
    if metric == "tokens_per_s_per_gpu":
        return result["tokens_per_s"] / result["gpus"]
    return result[metric]


def run_case(cli, scenario):
    proc = subprocess.run([cli, "simulate", scenario, "--json"], capture_output=True, text=True,
                          timeout=600)
    if proc.returncode != 0:
        raise RuntimeError(f"{scenario}: exit {proc.returncode}: {proc.stderr.strip()}")
    return json.loads(proc.stdout)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--cli", required=True)
    ap.add_argument("--validation", required=True)
    ap.add_argument("--markdown")
    ap.add_argument("--update-doc")
    ap.add_argument("--max-mape", type=float)
    ap.add_argument("--max-error", type=float)
    args = ap.parse_args()

    csv_path = os.path.join(args.validation, "expected.csv")
    try:
        with open(csv_path, newline="") as f:
            rows = list(csv.DictReader(f))
    except OSError as e:
        print(f"validate: cannot read {csv_path}: {e}", file=sys.stderr)
        return 2

    results = []
    for row in rows:
        scenario = os.path.join(args.validation, "scenarios", row["id"] + ".json")
        expected = float(row["expected"])
        try:
            result = run_case(args.cli, scenario)
            predicted = metric_value(result, row["metric"])
            err = predicted / expected - 1.0
            results.append((row, predicted, err, result.get("bottleneck", result.get("algorithm", ""))))
        except Exception as e:  # a failing case is reported, and counts as a failure
            results.append((row, float("nan"), float("nan"), str(e)))

    lines = ["| case | source | metric | measured | predicted | error |",
             "|---|---|---|---:|---:|---:|"]
    errors = []
    for row, predicted, err, _ in results:
        ok = err == err
        if ok:
            errors.append(abs(err))
        lines.append(f"| {row['id']} | {row['source']} | {row['metric']} | {float(row['expected']):.4g} | "
                     + (f"{predicted:.4g} | {err * 100:+.1f}% |" if ok else "failed | - |"))
    mape = 100.0 * sum(errors) / len(errors) if errors else float("nan")
    worst = 100.0 * max(errors) if errors else float("nan")
    failed = len(results) - len(errors)
    summary = f"**{len(results)} cases: MAPE {mape:.1f}%, worst {worst:.1f}%" + (
        f", {failed} failed to run**" if failed else "**")
    table = "\n".join(lines + ["", summary])
    print(table)

    if args.markdown:
        with open(args.markdown, "w") as f:
            f.write(table + "\n")
    if args.update_doc:
        with open(args.update_doc) as f:
            doc = f.read()
        if BEGIN not in doc or END not in doc:
            print(f"validate: {args.update_doc} has no validation-table markers", file=sys.stderr)
            return 2
        head, rest = doc.split(BEGIN, 1)
        _, tail = rest.split(END, 1)
        tmp = args.update_doc + ".tmp"
        with open(tmp, "w") as f:
            f.write(head + BEGIN + "\n" + table + "\n" + END + tail)
        os.replace(tmp, args.update_doc)

    if failed:
        return 1
    if args.max_mape is not None and mape > args.max_mape:
        print(f"validate: MAPE {mape:.1f}% is above {args.max_mape}%", file=sys.stderr)
        return 1
    if args.max_error is not None and worst > args.max_error:
        print(f"validate: worst error {worst:.1f}% is above {args.max_error}%", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
