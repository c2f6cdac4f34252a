/*
 * `mcpvet eval`: scan a labeled corpus and print the scorecard (always, pass
 * or fail), optionally applying the CI gate. Exit codes: 0 done or gate
 * passed, 6 gate failed, 2 usage, input or gate configuration error (a gate
 * over a corpus without malicious entries or hard negatives is never a pass).
 */
#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "mcpvet/engine.h"
#include "mcpvet/eval.h"
#include "mcpvet/model.h"
#include "mcpvet/report.h"

enum {
    OPT_WHOLE = 256,
    OPT_GATE,
    OPT_MIN_RECALL,
    OPT_MAX_FP,
    OPT_STRUCT_RECALL,
    OPT_VARIANT_GAP,
    OPT_EXPECTED_Q,
    OPT_MAX_REVIEW_RATE,
    OPT_MAX_QUARANTINES,
    OPT_PER_ENTRY,
    OPT_DISABLE_CHECK,
};

void mv_cli_eval_usage(FILE *f) {
    fputs("Usage: mcpvet eval --corpus FILE|DIR [--corpus FILE|DIR ...] [options]\n"
          "\n"
          "Scan every entry of a labeled corpus and report recall and false\n"
          "positives per category and overall. A directory stands for every *.json\n"
          "file below it (sorted, recursive); files under a holdout/ directory are\n"
          "also reported separately.\n"
          "\n"
          "Options:\n"
          "  -c, --corpus PATH             corpus file or directory (repeatable)\n"
          "      --whole-registry          scan all entries in one registry instead of\n"
          "                                each entry with its own peers\n"
          "      --gate                    enforce the gate; exit 6 when it fails\n"
          "      --min-recall R            gate: recall at any tier (default 0.90)\n"
          "      --max-fp R                gate: hard-negative quarantine FP rate\n"
          "                                (default 0.05)\n"
          "      --structural-min-recall R gate: quarantine-tier recall of structural\n"
          "                                categories (default 0.95)\n"
          "      --min-expected-quarantine R\n"
          "                                gate: quarantine-tier recall of entries labeled\n"
          "                                expected=quarantine (default: not enforced)\n"
          "      --max-variant-gap R       gate: recall gap between the variants of a\n"
          "                                phrase family (default: not enforced)\n"
          "      --max-review-rate R       benign limit: share of benign entries flagged\n"
          "                                at any tier (works without --gate too)\n"
          "      --max-quarantines N       benign limit: benign entries quarantined\n"
          "                                (works without --gate too)\n"
          "  -f, --format FORMAT           text (default) or json\n"
          "      --per-entry               list every entry with its verdict\n"
          "  -o, --output FILE             write the scorecard to FILE\n"
          "  -j, --jobs N                  worker threads (default: online cores)\n"
          "      --disable-check ID        leave a builtin check out (repeatable)\n"
          "  -h, --help                    show this help\n"
          "\n"
          "Without --gate, the benign limits alone form the gate, for corpora of\n"
          "real tools that have no malicious entries.\n"
          "\n"
          "Exit codes: 0 done (or gate passed), 6 gate failed, 2 usage, input or\n"
          "gate configuration error.\n",
          f);
}

typedef struct eval_args {
    mv_cli_list corpus;
    mv_cli_list disabled;
    const char *output;
    mv_report_format format;
    mv_eval_gate_options gate_opts;
    unsigned jobs;
    bool whole;
    bool gate;
    bool thresholds;    /* a gate threshold was given */
    bool benign_limits; /* --max-review-rate / --max-quarantines */
    bool per_entry;
    bool help;
} eval_args;

static int parse_args(eval_args *a, int argc, char **argv) {
    static const struct option longopts[] = {
        {"corpus", required_argument, NULL, 'c'},
        {"whole-registry", no_argument, NULL, OPT_WHOLE},
        {"gate", no_argument, NULL, OPT_GATE},
        {"min-recall", required_argument, NULL, OPT_MIN_RECALL},
        {"max-fp", required_argument, NULL, OPT_MAX_FP},
        {"structural-min-recall", required_argument, NULL, OPT_STRUCT_RECALL},
        {"max-variant-gap", required_argument, NULL, OPT_VARIANT_GAP},
        {"min-expected-quarantine", required_argument, NULL, OPT_EXPECTED_Q},
        {"max-review-rate", required_argument, NULL, OPT_MAX_REVIEW_RATE},
        {"max-quarantines", required_argument, NULL, OPT_MAX_QUARANTINES},
        {"format", required_argument, NULL, 'f'},
        {"per-entry", no_argument, NULL, OPT_PER_ENTRY},
        {"output", required_argument, NULL, 'o'},
        {"jobs", required_argument, NULL, 'j'},
        {"disable-check", required_argument, NULL, OPT_DISABLE_CHECK},
        {"help", no_argument, NULL, 'h'},
        {NULL, 0, NULL, 0},
    };
    int c;
    opterr = 0;
    while ((c = getopt_long(argc, argv, ":c:f:o:j:h", longopts, NULL)) != -1) {
        switch (c) {
        case 'c':
            if (mv_cli_expand_json_path(&a->corpus, optarg) != 0)
                return MV_EXIT_USAGE;
            break;
        case OPT_WHOLE:
            a->whole = true;
            break;
        case OPT_GATE:
            a->gate = true;
            break;
        case OPT_MIN_RECALL:
            a->thresholds = true;
            if (mv_cli_parse_rate("eval: --min-recall", optarg, &a->gate_opts.min_recall) != 0)
                return MV_EXIT_USAGE;
            break;
        case OPT_MAX_FP:
            a->thresholds = true;
            if (mv_cli_parse_rate("eval: --max-fp", optarg, &a->gate_opts.max_fp) != 0)
                return MV_EXIT_USAGE;
            break;
        case OPT_STRUCT_RECALL:
            a->thresholds = true;
            if (mv_cli_parse_rate("eval: --structural-min-recall", optarg,
                                  &a->gate_opts.structural_min_recall_quarantine) != 0)
                return MV_EXIT_USAGE;
            break;
        case OPT_EXPECTED_Q:
            a->thresholds = true;
            if (mv_cli_parse_rate("eval: --min-expected-quarantine", optarg,
                                  &a->gate_opts.min_expected_quarantine_recall) != 0)
                return MV_EXIT_USAGE;
            break;
        case OPT_VARIANT_GAP:
            a->thresholds = true;
            if (mv_cli_parse_rate("eval: --max-variant-gap", optarg,
                                  &a->gate_opts.max_variant_gap) != 0)
                return MV_EXIT_USAGE;
            break;
        case OPT_MAX_REVIEW_RATE:
            a->benign_limits = true;
            if (mv_cli_parse_rate("eval: --max-review-rate", optarg,
                                  &a->gate_opts.max_review_rate) != 0)
                return MV_EXIT_USAGE;
            break;
        case OPT_MAX_QUARANTINES: {
            unsigned long long n = 0;
            a->benign_limits = true;
            if (mv_cli_parse_count("eval: --max-quarantines", optarg, INT64_MAX, &n) != 0)
                return MV_EXIT_USAGE;
            a->gate_opts.max_quarantines = (int64_t)n;
            break;
        }
        case 'f':
            if (mv_report_parse_format(&a->format, optarg) != 0 || a->format == MV_REPORT_SARIF) {
                mv_cli_error("eval: --format must be text or json, not \"%s\"", optarg);
                return MV_EXIT_USAGE;
            }
            break;
        case OPT_PER_ENTRY:
            a->per_entry = true;
            break;
        case 'o':
            a->output = optarg;
            break;
        case 'j':
            if (mv_cli_parse_jobs("eval: --jobs", optarg, &a->jobs) != 0)
                return MV_EXIT_USAGE;
            break;
        case OPT_DISABLE_CHECK:
            if (mv_cli_list_add(&a->disabled, optarg) != 0) {
                mv_cli_error("out of memory");
                return MV_EXIT_USAGE;
            }
            break;
        case 'h':
            a->help = true;
            return 0;
        case ':':
            mv_cli_error("eval: option %s needs a value", argv[optind - 1]);
            mv_cli_eval_usage(stderr);
            return MV_EXIT_USAGE;
        default:
            mv_cli_error("eval: unknown option \"%s\"", argv[optind - 1]);
            mv_cli_eval_usage(stderr);
            return MV_EXIT_USAGE;
        }
    }
    if (optind < argc) {
        mv_cli_error("eval: unexpected argument \"%s\" (corpus files go after --corpus)",
                     argv[optind]);
        mv_cli_eval_usage(stderr);
        return MV_EXIT_USAGE;
    }
    if (a->corpus.n == 0) {
        mv_cli_error("eval: no corpus; give at least one --corpus FILE|DIR");
        mv_cli_eval_usage(stderr);
        return MV_EXIT_USAGE;
    }
    if (a->thresholds && !a->gate) {
        mv_cli_error("eval: gate thresholds need --gate");
        return MV_EXIT_USAGE;
    }
    /* Benign limits alone judge only the benign entries. */
    a->gate_opts.benign_only = a->benign_limits && !a->gate;
    return 0;
}

int mv_cli_eval(int argc, char **argv) {
    eval_args a;
    mv_toolset **sets = NULL;
    mv_engine *engine = NULL;
    mv_eval *ev = NULL;
    mv_buf out;
    mv_error err;
    mv_error gate_err;
    bool gate_config_error = false;
    int code = MV_EXIT_USAGE;

    memset(&a, 0, sizeof a);
    mv_eval_gate_options_init(&a.gate_opts);
    a.jobs = mv_cli_default_jobs();
    mv_buf_init(&out, NULL);
    mv_error_clear(&err);
    mv_error_clear(&gate_err);

    int rc = parse_args(&a, argc, argv);
    if (rc != 0 || a.help) {
        if (a.help)
            mv_cli_eval_usage(stdout);
        code = a.help ? MV_EXIT_OK : rc;
        goto done;
    }

    sets = calloc(a.corpus.n, sizeof *sets);
    if (sets == NULL) {
        mv_cli_error("out of memory");
        goto done;
    }
    for (size_t i = 0; i < a.corpus.n; i++) {
        mv_error_clear(&err);
        if (mv_model_load_file(&sets[i], a.corpus.items[i], NULL, &err) != MV_OK) {
            mv_cli_print_error(&err, a.corpus.items[i]);
            goto done;
        }
        if (sets[i]->kind != MV_INPUT_CORPUS) {
            mv_cli_error("%s: not a labeled corpus (expected {\"entries\":[...]})",
                         a.corpus.items[i]);
            goto done;
        }
    }

    mv_engine_options eopts;
    memset(&eopts, 0, sizeof eopts);
    eopts.disabled = (const char *const *)a.disabled.items;
    eopts.n_disabled = a.disabled.n;
    mv_error_clear(&err);
    if (mv_engine_new(&engine, &eopts, &err) != MV_OK) {
        mv_cli_error("eval: %s", err.message[0] ? err.message : mv_strerror(err.code));
        goto done;
    }

    mv_eval_options opts = {a.whole ? MV_EVAL_WHOLE_REGISTRY : MV_EVAL_PER_ENTRY, a.jobs};
    mv_error_clear(&err);
    if (mv_eval_run(&ev, engine, (const mv_toolset *const *)sets, a.corpus.n, &opts, &err) !=
        MV_OK) {
        mv_cli_error("%s", err.message[0] ? err.message : "eval failed");
        goto done;
    }
    if ((a.gate || a.benign_limits) && mv_eval_gate_apply(ev, &a.gate_opts, &gate_err) != MV_OK)
        gate_config_error = true;

    /* The scorecard is printed whatever the gate says. */
    mv_eval_render_options ropts = {a.format, a.per_entry, NULL};
    mv_error_clear(&err);
    if (mv_eval_render(&out, ev, &ropts, &err) != MV_OK) {
        mv_cli_error("%s", err.message[0] ? err.message : "cannot render the scorecard");
        goto done;
    }
    if (mv_cli_write_output(a.output, &out) != 0)
        goto done;
    if (gate_config_error) {
        mv_cli_error("%s", gate_err.message);
        goto done;
    }
    code = MV_EXIT_OK;
    if (ev->gate.ran) {
        /* The text scorecard on stdout already ends with the verdict; a JSON
         * or redirected scorecard still leaves it in the log. */
        bool echoed =
            a.format == MV_REPORT_TEXT && (a.output == NULL || strcmp(a.output, "-") == 0);
        if (!echoed) {
            if (ev->gate.passed)
                fprintf(stderr, "%s\n", ev->gate.message);
            for (size_t i = 0; !ev->gate.passed && i < ev->gate.n_failures; i++)
                fprintf(stderr, "%s\n", ev->gate.failures[i]);
        }
        if (!ev->gate.passed)
            code = MV_EXIT_GATE;
    }
done:
    mv_buf_release(&out);
    mv_eval_free(ev);
    mv_engine_free(engine);
    for (size_t i = 0; sets != NULL && i < a.corpus.n; i++)
        mv_toolset_free(sets[i]);
    free(sets);
    mv_cli_list_free(&a.corpus);
    mv_cli_list_free(&a.disabled);
    return code;
}
