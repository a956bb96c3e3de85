#!/usr/bin/env python3
"""Scores scalescope-cli against published measurements (shared/validation).

For each row of expected.csv, runs `scalescope-cli simulate FILE --json`, reads the metric
(tokens_per_s_per_gpu = tokens_per_s / gpus; memory_gib = memory_per_gpu_bytes.total / 2^30,
the peak memory per GPU), and reports error = predicted / expected - 1,
the mean absolute percentage error (MAPE) and the worst case.

  scripts/validate.py --cli build/app/scalescope-cli --validation ../shared/validation
      [--markdown OUT.md] [--update-doc docs/model.md] [--max-mape 10] [--max-error 25]

When <validation>/recent/expected.csv exists, its rows (issue 25: H100-era runs, with
memory_gib rows) get a table of their own after the others; likewise moe/ (issue 27). Then, when
<validation>/vtrain/single_node.csv exists, the measured single-node
Megatron-DeepSpeed iterations (vTrain): each row becomes a scenario (the setting its README
states, as tests/validation/tst_validation.cpp builds it), and the table gives per
(model, GPU count) group the MAPE and the Spearman rank correlation of predicted against
measured time.

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
    if metric == "memory_gib":  # predicted peak per GPU against what the framework printed
        return result["memory_per_gpu_bytes"]["total"] / 2**30
    return result[metric]


def run_case(cli, scenario):
    proc = subprocess.run([cli, "simulate", scenario, "--json"], capture_output=True, text=True,
                          timeout=600)
    if proc.returncode != 0:
        raise RuntimeError(f"{scenario}: exit {proc.returncode}: {proc.stderr.strip()}")
    return json.loads(proc.stdout)


VTRAIN_SCENARIO = """{{"scalescope": 1, "name": "vtrain row {line}",
"hardware": {{"gpu": "a100-sxm4-80gb", "nodes": 1, "gpus_per_node": {gpus}, "intra_node": "nvlink3",
             "inter_node": "ib-hdr-200", "nics_per_node": 4}},
"model": {{"transformer": {{"layers": {layers}, "hidden": {hidden}, "heads": {heads}, "seq_len": {seq}, "vocab": {vocab}}}}},
"training": {{"global_batch": {gb}, "micro_batch": {mb}, "precision": "fp16", "optimizer": "adam",
             "recompute": "full", "framework": "megatron-deepspeed"}},
"parallel": {{"data": {d}, "tensor": {t}, "pipeline": {p}, "schedule": "1f1b"}}}}"""


def ranks(values):
    order = sorted(range(len(values)), key=lambda i: values[i])
    r = [0.0] * len(values)
    i = 0
    while i < len(order):
        j = i
        while j + 1 < len(order) and values[order[j + 1]] == values[order[i]]:
            j += 1
        for k in range(i, j + 1):
            r[order[k]] = (i + j) / 2.0 + 1.0
        i = j + 1
    return r


def spearman(x, y):
    rx, ry = ranks(x), ranks(y)
    n = len(x)
    mx, my = sum(rx) / n, sum(ry) / n
    sxy = sum((a - mx) * (b - my) for a, b in zip(rx, ry))
    sxx = sum((a - mx) ** 2 for a in rx)
    syy = sum((b - my) ** 2 for b in ry)
    return sxy / (sxx * syy) ** 0.5 if sxx > 0 and syy > 0 else 1.0


def vtrain_table(cli, folder):
    path = os.path.join(folder, "vtrain", "single_node.csv")
    if not os.path.exists(path):
        return None
    import tempfile
    with open(path, newline="") as f:
        rows = list(csv.reader(f))[1:]
    groups = {}
    errors = []
    with tempfile.TemporaryDirectory() as tmp:
        for line, r in enumerate(rows, start=2):
            gpus, gb, mb, hidden, heads, layers, seq, t, d, p, ms = r
            multiple = 128 * int(t)
            vocab = (50257 + multiple - 1) // multiple * multiple
            scenario = os.path.join(tmp, f"row{line}.json")
            with open(scenario, "w") as f:
                f.write(VTRAIN_SCENARIO.format(line=line, gpus=gpus, layers=layers, hidden=hidden,
                                               heads=heads, seq=seq, vocab=vocab, gb=gb, mb=mb,
                                               d=d, t=t, p=p))
            predicted = run_case(cli, scenario)["step_time_s"]
            measured = float(ms) * 1e-3
            errors.append(abs(predicted / measured - 1.0))
            key = (f"h{hidden} a{heads} L{layers} s{seq}", int(gpus))
            groups.setdefault(key, []).append((measured, predicted))
    lines = ["| model | GPUs | rows | MAPE | Spearman |", "|---|---:|---:|---:|---:|"]
    rhos = []
    for (model, gpus), members in sorted(groups.items()):
        mape = 100.0 * sum(abs(p / m - 1.0) for m, p in members) / len(members)
        rho = spearman([m for m, _ in members], [p for _, p in members]) if len(members) >= 3 else None
        if rho is not None:
            rhos.append(rho)
        lines.append(f"| {model} | {gpus} | {len(members)} | {mape:.1f}% | "
                     + (f"{rho:.3f} |" if rho is not None else "- |"))
    summary = (f"**vTrain single node, {len(errors)} iterations: MAPE {100.0 * sum(errors) / len(errors):.1f}%, "
               f"worst {100.0 * max(errors):.1f}%, mean Spearman {sum(rhos) / len(rhos):.3f} over {len(rhos)} groups**")
    return "\n".join(lines + ["", summary])


def subfolder_table(cli, folder, sub, title):
    """The rows of <validation>/<sub> (recent/: issue 25's H100-era runs; moe/: issue 27's
    mixture-of-experts and context-parallel runs), scored the same way, reported beside the
    main table (the limits apply to the main table only)."""
    path = os.path.join(folder, sub, "expected.csv")
    if not os.path.exists(path):
        return None
    with open(path, newline="") as f:
        rows = list(csv.DictReader(f))
    lines = [title, "",
             "| case | metric | measured | predicted | error |", "|---|---|---:|---:|---:|"]
    errors = []
    failed = 0
    for row in rows:
        scenario = os.path.join(folder, sub, "scenarios", row["id"] + ".json")
        expected = float(row["expected"])
        try:
            predicted = metric_value(run_case(cli, scenario), row["metric"])
            err = predicted / expected - 1.0
            errors.append(abs(err))
            lines.append(f"| {row['id']} | {row['metric']} | {expected:.4g} | {predicted:.4g} | {err * 100:+.1f}% |")
        except Exception:
            failed += 1
            lines.append(f"| {row['id']} | {row['metric']} | {expected:.4g} | failed | - |")
    mape = 100.0 * sum(errors) / len(errors) if errors else float("nan")
    worst = 100.0 * max(errors) if errors else float("nan")
    lines += ["", f"**{sub}/, {len(rows)} rows: MAPE {mape:.1f}%, worst {worst:.1f}%"
              + (f", {failed} failed to run**" if failed else "**")]
    return "\n".join(lines)


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
    vtrain = vtrain_table(args.cli, args.validation)
    if vtrain:
        table += "\n\n" + vtrain
    for sub, title in (("recent", "Published runs on today's GPUs and stacks (`recent/`):"),
                       ("moe", "Mixture-of-experts and context-parallel runs (`moe/`):")):
        extra = subfolder_table(args.cli, args.validation, sub, title)
        if extra:
            table += "\n\n" + extra
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
