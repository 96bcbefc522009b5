"""The fixtures that say so are run for real, to prove what their `# expect:` markers claim.

A fixture opts in with a first line `# jax: steps` on its program (the file itself, or `main.py` of a
folder), which takes the number of steps its loops run as its first argument. It is run with 2 and with 4
steps, under ``jax_explain_cache_misses``: a jitted function re-traces per step when it traces more often in
the longer run, which is what an error finding claims; a warning claims a few extra traces that do not grow.
Traces while a program warms up, while an enclosing jit traces, or of a helper called twice per process do
not grow with the number of steps, and no finding may claim them. The fixtures run in a few batches
(``BATCHES``), one process per batch and step count.

The negative fixtures about sizes and values that do not vary (``TRACE_ONCE``: padding back to a fixed
size, fixed windows of signals of several lengths, ranges whose bounds move together, lists refilled to
one length (into the list's own name too), equal literal items, index dtypes, code through objects that
looks suspicious, settings hashed by their fields and made anew per call, chunks of sizes that divide
evenly, random draws that change values but no size, instances of a list with equal fields, filtered
lists topped up to a fixed length, dataclass fields that keep their defaults, counts kept as pytree
leaves, carried states that start as the kind they come back as, last chunks padded under a test of
their length, a static apply function carried through jitted updates, fixed windows mapped over a pytree of
rays, caches cleared once before a loop that refits on ever more rows, a dict keyed by the one task
every call passes, states made as float32 arrays from float constants, floats swept as traced
arguments and pytree leaves, texts padded to a fixed width, arrays whose values change in place,
ranges of a fixed count, listed instances that share their static fields, instances made in loops
with one static value, packed batches concatenated and padded to a budget, warm-ups whose branches
pass one kind of learning rate, labels cut to the length of full chunks,
bfloat16 values updated by weakly typed factors or cast back, groups of an imported list that divide
it evenly, arrays made from lists of mixed items, lists of a fixed number of indices,
static fields a jitted update hands back as they came in, optimizer slots that start as the tuple
they come back as, input lists appended to under a run's setting, states a caller makes with
the clock's own dtype, radii a helper scales by Python numbers only, clones
of an estimator hashed by its settings, one pullback reused at every step, settings rebuilt with
the compared fields passed on, texts of several lengths featurised into a fixed number of rows, Partials
of one module-level function, statistics reduced over the axis a buffer (local or an attribute) grows
along, pytrees an alternative constructor builds with aux data from a configuration made once, settings
dicts that agree on the item a jitted function gets, a checkpoint's weakly typed counter, events padded
to a fixed window or a power-of-two bucket, full batches that helpers size their arrays by, graphs a
factory pads to a fixed size and spreads into the call, full batches of a tuple-bound constant, a static
attribute another object sets to one value, settings replaced with the same field, a clock read only
for a log, lists of readings refilled per call, masks that methods return alike, dict states made with the
dtypes their jitted steps give back, attributes getters hand out made as float32 arrays from the
start, clouds padded by their weights' length to a multiple of 64, save-time tuples made from one window, grids a loader
makes alike every year, windows of a history that starts full, repeats told their
total length, zone blocks padded before a jitted loss is mapped over them, filtered rows a
helper pads to a fixed count, a weak gain a jitted update hands back weak, a project's own loader
of full batches and a rolling window of a deque with maxlen, int64 ids where only another script
turns x64 on, NumPy scalars as static settings, states their jitted updates give back in their own dtype
by jax's promotion rules, functions jitted through another module's alias of jax.jit, lax loops only
under isinstance(x, jax.core.Tracer), jits memoised in a dict by cache.get(key) is None, loops over
one item, batches whose sizes a JSON configuration makes divide, buffers whose own append a base class or a
later __init__ sets up, lax loops and conds of steps jitted unless a flag turns jit off, dicts that hold
batch statistics when a state has them, for the whole run, checks run once each from a table of names and
functions, rollouts flushed in fixed windows, rollout buffers reset and filled by loops of a fixed
count, rollouts a training loop empties before a helper fills them with a fixed count, runner states
unpacked from the tuple a helper forwards, hidden states reset to zeros of their own shape, growing
replay pools sampled at a fixed count, rollouts array_split into pieces that divide them, and keys
split into a new list of a fixed count at each step, evaluators compiled again only for another loss,
scenes filled and built before the loop that steps them, sizes read off detector planes made
alike, clips batched until a count and the rest padded to it, batches rebound to their
stacked array at a count, pools that grow sampled by position at a fixed count,
windows of a fixed width that wrap around the end of a pool, settings whose item a
container default stands for that stays the same while the dict around it changes, a carried
state whose only weakly typed leaf comes back weak, positions that an argmax or a sum of a
boolean test picks one item or row by, static scales a jitted encoder gives back as
None, a jit kept on each runtime that nothing calls, and last batches topped up by repeating their
last crop or padded by what their bounds lack, chunks trimmed to a compiled length and padded
back to it, rows padded up to a count unless they have it, and
dicts of one structure filtered by their keys)
are held to more:
every function they jit traces exactly once: at 2 and at 4 steps, in the runs above, where they opt in;
the others in one process from a copy of the fixtures (so no cache files land in the tree), with
their own number of steps.
"""

from __future__ import annotations

import functools
import importlib.util
import json
import shutil
from collections.abc import Iterable
from pathlib import Path

import pytest
from dynamic_support import RetraceReport, TracedFunction, count_retraces_many
from test_fixtures import FIXTURES, UNPROVEN, checked_run, expectations
from work_units import unit_id

from retracelint.model import with_related

OPT_IN = "# jax: steps"
# Each fixture (a file, or a folder and the module to run) whose every jitted function traces once.
TRACE_ONCE = (
    ("rtl101_negative_windows_of_variable_signals.py", None),
    ("rtl102_negative_lists_refilled_per_iteration.py", None),
    ("rtl103_negative_padded_last_batch.py", None),
    ("rtl103_negative_chunks_over_closure_sizes.py", None),
    ("rtl105_negative_arange_pages.py", None),
    ("rtl201_negative_values_that_do_not_vary.py", None),
    ("rtl402_negative_index_dtypes.py", None),
    ("rtl402_negative_int64_without_x64.py", None),
    ("rtl402_negative_carried_promotion_without_x64.py", None),
    ("carried_states_promoted_in_jitted_bodies_negative", "main.py"),
    ("carried_states_made_float_or_complex_in_jitted_bodies_negative", "main.py"),
    ("rtl402_negative_scalars_of_one_type.py", None),
    ("rtl105_negative_numpy_fixed_sizes.py", None),
    ("rtl105_negative_same_shape_elements.py", None),
    ("rtl102_negative_buffers_kept_in_shape.py", None),
    ("rtl403_negative_same_keys.py", None),
    ("rtl405_negative_contexts_outside_the_key.py", None),
    ("padded_clips_across_modules", "train.py"),
    ("objects_negative_stay_clean.py", None),
    ("value_hashed_holders", "main.py"),
    ("chunk_sizes_even", "main.py"),
    ("flips_traced_back_negative", "main.py"),
    ("sizes_drawn_by_helpers_negative", "main.py"),
    ("same_fields_and_padded_filters", "main.py"),
    ("fields_left_at_defaults", "main.py"),
    ("static_counters_negative", "main.py"),
    ("weak_starts_made_by_helpers_negative", "main.py"),
    ("last_chunks_padded_in_branches", "main.py"),
    ("lists_rebound_to_their_concatenation", "main.py"),
    ("static_apply_fn_through_jitted_updates", "main.py"),
    ("trees_mapped_to_fixed_windows", "main.py"),
    ("caches_cleared_once_before_the_loop", "main.py"),
    ("dicts_keyed_by_one_task", "main.py"),
    ("weak_float_constants_negative", "main.py"),
    ("float_fields_through_factories_negative", "main.py"),
    ("texts_padded_to_the_longest_negative", "main.py"),
    ("arrays_changed_in_place_on_self_negative", "main.py"),
    ("range_lists_with_steps_negative", "main.py"),
    ("static_fields_of_listed_instances_negative", "main.py"),
    ("objects_listed_per_iteration_negative", "main.py"),
    ("packed_batches_padded_negative", "main.py"),
    ("weak_branches_through_helpers_negative", "main.py"),
    ("slices_as_long_as_a_chunk_negative", "main.py"),
    ("dtypes_promoted_by_loop_updates_negative", "main.py"),
    ("chunks_of_imported_lists_negative", "main.py"),
    ("arrays_from_mixed_items_negative", "main.py"),
    ("index_lists_from_arrays_negative", "main.py"),
    ("static_fields_through_jitted_updates_negative", "main.py"),
    ("carried_lists_come_back_as_tuples_negative", "main.py"),
    ("lists_appended_to_under_a_test_negative", "main.py"),
    ("states_carried_from_a_parameter_negative", "main.py"),
    ("carried_leaves_from_helpers_negative", "main.py"),
    ("carried_fields_promoted_with_helper_reductions_negative", "main.py"),
    ("carried_parameters_cast_in_the_step_negative", "main.py"),
    ("carried_choices_promoted_by_host_tables_negative", "main.py"),
    ("carried_aux_data_relabelled_negative", "main.py"),
    ("carried_buffers_filled_from_empty_negative", "main.py"),
    ("jitted_resets_handed_on_negative", "main.py"),
    ("closure_starts_told_where_written_negative", "main.py"),
    ("carried_leaves_promoted_by_object_tables_negative", "main.py"),
    ("carried_counters_beside_lax_floats_negative", "main.py"),
    ("estimators_cloned_by_their_class_negative", "main.py"),
    ("pullbacks_passed_to_jit_negative", "main.py"),
    ("objects_compared_by_some_fields_negative", "main.py"),
    ("lengths_of_listed_items_negative", "main.py"),
    ("partials_of_fresh_functions_negative", "main.py"),
    ("rtl102_negative_reduced_over_the_growing_axis.py", None),
    ("rtl102_negative_attribute_buffer_reduced.py", None),
    ("rtl401_negative_config_items_alike.py", None),
    ("rtl401_negative_classmethod_resume.py", None),
    ("rtl105_negative_events_padded_to_fixed_windows.py", None),
    ("batches_sized_by_helpers_negative", "main.py"),
    ("graphs_padded_by_a_factory_negative", "main.py"),
    ("rtl103_negative_batches_of_module_constants.py", None),
    ("static_attrs_set_by_other_objects_negative", "main.py"),
    ("rtl202_negative_replaced_settings_alike.py", None),
    ("rtl202_negative_clock_for_logging.py", None),
    ("rtl102_negative_readings_refilled_per_call.py", None),
    ("rtl104_negative_masks_from_fixed_methods.py", None),
    ("flips_negative_carried_dict_items_typed.py", None),
    ("getters_packing_attributes_negative", "main.py"),
    ("padded_by_a_sibling_length_negative", "main.py"),
    ("static_tuples_of_grid_values_negative", "main.py"),
    ("static_objects_from_loaders_negative", "main.py"),
    ("windows_of_growing_histories_negative", "main.py"),
    ("repeats_by_drawn_counts_negative", "main.py"),
    ("leaves_mapped_to_jitted_calls_negative", "main.py"),
    ("rows_filtered_then_padded_negative", "main.py"),
    ("getters_given_back_weak_negative", "main.py"),
    ("rtl201_negative_classmethod_built_pytrees.py", None),
    ("own_loaders_and_bounded_windows_negative", "main.py"),
    ("x64_in_another_script_negative", "main.py"),
    ("numpy_scalars_as_statics_negative", "main.py"),
    ("registry_items_as_statics_negative", "main.py"),
    ("lazy_setup_by_early_return_negative", "main.py"),
    ("wrapper_aliases_across_modules_negative", "main.py"),
    ("lax_under_tracer_checks_negative", "main.py"),
    ("jits_memoised_in_dicts_negative", "main.py"),
    ("loops_of_one_item_negative", "main.py"),
    ("chunks_sized_by_a_json_config_negative", "main.py"),
    ("callable_append_through_base_classes", "main.py"),
    ("steps_jitted_behind_a_flag_negative", "main.py"),
    ("branches_on_fields_fixed_for_the_run_negative", "main.py"),
    ("checks_run_from_a_table_negative", "main.py"),
    ("rollouts_flushed_in_fixed_windows_negative", "main.py"),
    ("rollout_buffers_filled_to_a_fixed_length_negative", "main.py"),
    ("rollouts_reset_by_the_training_loop_negative", "main.py"),
    ("runner_states_from_forwarding_helpers_negative", "main.py"),
    ("recurrent_states_reset_to_their_own_shape_negative", "main.py"),
    ("prioritized_replay_sampled_at_a_fixed_count_negative", "main.py"),
    ("minibatches_split_evenly_negative", "main.py"),
    ("jits_rebuilt_per_loss_negative", "main.py"),
    ("scenes_built_before_their_loop_negative", "main.py"),
    ("planes_read_per_item_negative", "main.py"),
    ("batches_flushed_at_a_count_negative", "main.py"),
    ("batches_flushed_then_rebound_negative", "main.py"),
    ("pools_sampled_at_a_fixed_count_negative", "main.py"),
    ("windows_wrapped_around_the_end_negative", "main.py"),
    ("settings_with_container_defaults_negative", "main.py"),
    ("carried_states_told_by_the_leaf_that_flips_negative", "main.py"),
    ("indices_counted_from_masks_negative", "main.py"),
    ("codec_scales_left_none_negative", "main.py"),
    ("jits_kept_for_later_negative", "main.py"),
    ("crops_topped_up_to_the_batch_negative", "main.py"),
    ("chunks_trimmed_and_padded_back_negative", "main.py"),
    ("wires_padded_to_a_segment_count_negative", "main.py"),
    ("sensor_dicts_filtered_by_key_negative", "main.py"),
)


def _program(project: Path) -> Path | None:
    program = project / "main.py" if project.is_dir() else project
    if not program.is_file():
        return None
    with program.open(encoding="utf-8") as source:
        return program if source.readline().strip() == OPT_IN else None


PROGRAMS = {p: prog for p in sorted(FIXTURES.iterdir()) if (prog := _program(p)) is not None}
pytestmark = pytest.mark.skipif(
    importlib.util.find_spec("jax") is None, reason="jax is not installed"
)
# Fixtures whose positives and negatives share one program, run with 2 and with 4 steps: the defs
# named here (file:line as jax places them; a library's by file:name) trace once more per step,
# every other one exactly once. Their jits wrap methods defined away from the `jax.jit(...)` a
# finding names, or pass objects as static arguments, so the traces are told by the def.
PER_STEP = {
    "setup_until_set": {"agents.py:36"},
    # A critic built under a memo in a function run per step; the policy's memo is in one run once.
    "objects_built_under_a_memo": {"agents.py:24"},
    # A base class's method calls the override, which builds its jit once per call of score();
    # the probes built per step run the base's __init__, never the translation's prepare().
    "overrides_called_from_a_base": {"translation.py:23"},
    "caches_cleared_in_loops": {"steps.py:5"},
    # jit's cache takes each new bound method as a new function (pmap's traces are counted below).
    "pmap_of_bound_methods": {"sampler.py:14"},
    "bound_methods_of_fresh_holders": {"rankers.py:14", "rankers.py:29", "_linear.py:__call__"},
    "static_holders_rebuilt": {
        "solve.py:14",
        "solve.py:16",
        "detrend.py:21",
        "flat.py:10",
        "grids.py:30",
    },
}

# The programs run in batches, each a unit of work of its own for pytest-xdist (tests/work_units.py),
# so that both workers share the minutes they take rather than one running them all: a batch's
# programs at 2 and at 4 steps, one process per step count. A batch costs a fork of the runner and a
# backend start (a fraction of a second) per step count; six of about 30 s of CPU each let the
# two workers end together.
BATCHES = 6


def _batches() -> dict[str, list[Path]]:
    """Each batch's fixtures, in the order they run: the opt-in programs dealt out in turn, then the
    mixed fixtures (``PER_STEP``) likewise, last in their batch so that the opt-in programs run exactly
    as they would without them. A program that turns x64 on changes jax's global config for every
    program after it in its process: those form a batch of their own."""
    mixed = [FIXTURES / name for name in sorted(PER_STEP)]
    x64 = [p for p in PROGRAMS if "jax_enable_x64" in PROGRAMS[p].read_text("utf-8")]
    shared = [p for p in PROGRAMS if p not in x64]
    batches = {str(i + 1): shared[i::BATCHES] + mixed[i::BATCHES] for i in range(BATCHES)}
    return {**batches, "x64": x64}


RUN_BATCHES = _batches()
BATCH_OF = {fixture: name for name, batch in RUN_BATCHES.items() for fixture in batch}


@pytest.fixture(scope="module")
def runs(request: pytest.FixtureRequest) -> dict[int, dict[Path, RetraceReport]]:
    """The programs of one batch (the parameter), at 2 and at 4 steps, keyed by their fixture. A
    trace-once fixture runs at 4 steps only: a function traced once in 4 steps was traced at most
    once in 2, so the shorter run could only fail where the longer one does."""
    batch = RUN_BATCHES[request.param]
    out = {}
    for steps in (2, 4):
        fixtures = [f for f in batch if steps == 4 or f.name not in OPTED_IN_ONCE]
        scripts = [PROGRAMS.get(fixture, fixture / "main.py") for fixture in fixtures]
        reports = count_retraces_many(scripts, FIXTURES, [str(steps)], counts_only=True)
        out[steps] = dict(zip(fixtures, reports, strict=True))
    return out


def _by_batch(names: Iterable[str]) -> pytest.MarkDecorator:
    """Parametrise a test by the name of a fixture and by the batch (``runs``) it runs in. Module
    scope: with a plain ``name`` beside it, the parameter would be function-scoped, and pytest would
    run the batch again for each test."""
    batches = [(name, BATCH_OF[FIXTURES / name]) for name in names]
    return pytest.mark.parametrize(
        ("name", "runs"),
        [pytest.param(name, batch, id=unit_id(name, batch)) for name, batch in batches],
        indirect=["runs"],
        scope="module",
    )


def test_some_fixtures_opt_in() -> None:
    assert len(PROGRAMS) >= 1


@functools.cache
def _claims(project: Path) -> tuple[tuple[str, int, str], ...]:
    """Each jitted function the findings on ``project`` name, as (file name, line of its jit site,
    severity), from the analysis its markers are checked against (``checked_run``: made once per
    test process). A finding whose chain rests on an assumption (shown only with
    ``--confidence all``) claims no bound: its severity here is "unproven"."""
    run = checked_run(project)
    # A finding folded into another of its cause (``related``) still names its jitted function:
    # the headline says "and N more of this cause" and --fix reaches it.
    found = with_related(run.findings)
    claims = [(f, f.severity if f.confidence == "high" else "unproven") for f in found]
    named = [(f.jit_site, claim) for f, claim in claims]
    named += [(route.jit_site, claim) for f, claim in claims for route in f.other_routes]
    return tuple(
        (Path(site.location.path).name, site.location.line, severity)
        for site, severity in named
        if site is not None
    )


def _severities(project: Path, function: TracedFunction) -> set[str]:
    """The severities of the findings that name ``function`` as their jitted function: jax places a
    decorated function at its first decorator, retracelint at its ``def`` (or at the ``jax.jit(...)``
    call around a lambda)."""
    return {
        severity
        for name, line, severity in _claims(project)
        if name == Path(function.file).name and 0 <= line - function.line <= 3
    }


@_by_batch(p.name for p in PROGRAMS)
def test_fixture_retraces_exactly_as_its_findings_say(
    name: str, runs: dict[int, dict[Path, RetraceReport]]
) -> None:
    """An error names a function that re-traces per step, a warning one that re-traces a few times
    whatever the number of steps; a function no finding names does not re-trace per step."""
    project = FIXTURES / name
    long, short = runs[4][project], runs[2].get(project)
    assert not long.raised and not (short and short.raised), long.summary()
    assert long.traces, "the program must call its jitted functions"
    marked = expectations(project) | expectations(project, UNPROVEN)
    assert bool(marked) == any(long.retraces.values()), long.summary()
    # A trace-once fixture ran at 4 steps only: what grows there is what traced more than once.
    before = short.traces if short is not None else dict.fromkeys(long.traces, 1)
    for function, count in long.traces.items():
        grows = count > before.get(function, 0)
        severities = _severities(project, function)
        if "error" in severities:
            assert grows, f"{function}: an error, but it does not re-trace per step"
        elif "warning" in severities:
            assert not grows and count >= 2, f"{function}: a warning, but traced {count} times"
        elif not severities:
            assert not grows, f"{function} re-traces per step and no finding names it"


# The trace-once fixtures that opt in have run at 4 steps in their batch (``runs``).
OPTED_IN_ONCE = [
    name
    for name, main in TRACE_ONCE
    if PROGRAMS.get(FIXTURES / name) == (FIXTURES / name / main if main else FIXTURES / name)
]
# The others run once, each with its own number of steps, from a copy: a unit of work of their own.
COPIED_ONCE = [(name, main) for name, main in TRACE_ONCE if name not in OPTED_IN_ONCE]


# A library beside the copies (on the programs' path, outside their folders, so that it stays imported
# from one program to the next, as an installed one does) and two programs after the fixtures that each
# call its jitted function at two sizes.
_LIBRARY = """import jax
import jax.numpy as jnp


@jax.jit
def normalise(x):
    return x / jnp.linalg.norm(x)
"""
_USES_LIBRARY = """import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "site-packages"))
import jax.numpy as jnp
from scaling import normalise

for size in (3, 4):
    print(normalise(jnp.arange(1.0, size + 1.0)).sum())
"""
LIBRARY_USERS = ("library_user_first", "library_user_second")


@pytest.fixture(scope="module")
def copied_runs(tmp_path_factory: pytest.TempPathFactory) -> dict[str, tuple[RetraceReport, Path]]:
    """Each trace-once fixture that does not opt in, run once with its own number of steps in one
    process from a copy, with the folder of the copy (where its own functions are defined)."""
    folder: Path = tmp_path_factory.mktemp("negative_fixtures")
    scripts: dict[str, Path] = {}
    for name, main in COPIED_ONCE:
        source = FIXTURES / name
        if main is None:
            shutil.copy(source, folder / name)
            scripts[name] = folder / name
        else:
            shutil.copytree(source, folder / name)
            scripts[name] = folder / name / main
    library = folder / "site-packages"
    library.mkdir()
    (library / "scaling.py").write_text(_LIBRARY, encoding="utf-8")
    for name in LIBRARY_USERS:
        (folder / name).mkdir()
        scripts[name] = folder / name / "main.py"
        scripts[name].write_text(_USES_LIBRARY, encoding="utf-8")
    reports = count_retraces_many(list(scripts.values()), cwd=folder, counts_only=True)
    return {
        name: (report, script.parent)
        for (name, script), report in zip(scripts.items(), reports, strict=True)
    }


def _assert_each_own_function_traced_once(report: RetraceReport, own_root: Path) -> None:
    assert not report.raised, report.summary()
    # jax's own helpers (no file) are not the program's functions: argmax traces one per call
    # site. Its own: defined in the fixture (a package below its folder too: sim/physics.py).
    own = {
        f: n for f, n in report.traces.items() if f.file and Path(f.file).is_relative_to(own_root)
    }
    assert own, "the fixture must call its jitted functions\n" + report.summary()
    assert all(n == 1 for n in own.values()), report.summary()


@_by_batch(OPTED_IN_ONCE)
def test_negative_fixture_traces_each_function_once(
    name: str, runs: dict[int, dict[Path, RetraceReport]]
) -> None:
    _assert_each_own_function_traced_once(runs[4][FIXTURES / name], (FIXTURES / name).resolve())


@pytest.mark.parametrize(
    "name", [pytest.param(name, id=unit_id(name, "copies")) for name, _ in COPIED_ONCE]
)
def test_copied_negative_fixture_traces_each_function_once(
    name: str, copied_runs: dict[str, tuple[RetraceReport, Path]]
) -> None:
    _assert_each_own_function_traced_once(*copied_runs[name])


@pytest.mark.parametrize(
    "name", [pytest.param(name, id=unit_id(name, "copies")) for name in LIBRARY_USERS]
)
def test_each_program_of_a_process_traces_as_if_it_ran_alone(
    name: str, copied_runs: dict[str, tuple[RetraceReport, Path]]
) -> None:
    """Programs that share one process of the runner (tests/dynamic_support.py): the second one's
    call at a second size re-traces the library's jitted function, as the first one's did, though
    the first one traced it at both sizes and the library stayed imported: jax's caches do not
    carry over from one program to the next, so no program's re-trace is hidden by another's."""
    report, _ = copied_runs[name]
    assert not report.raised, report.summary()
    counts = {
        (Path(f.file).name, f.name): (n, report.retraces.get(f, 0))
        for f, n in report.traces.items()
        if f.file  # jax's own helpers have none
    }
    assert counts == {("scaling.py", "normalise"): (2, 1)}, report.summary()


def test_classes_with_eq_and_no_hash_raise_where_rtl203_says(tmp_path: Path) -> None:
    """``unhashable_by_eq``: jax raises its Non-hashable error for exactly the calls marked RTL203
    (an ``__eq__`` without ``__hash__``, inherited too), and not for the classes that are hashable
    again (``__hash__`` in a subclass, a NamedTuple's methods, a frozen dataclass)."""
    folder = tmp_path / "unhashable_by_eq"
    shutil.copytree(FIXTURES / "unhashable_by_eq", folder)
    [run] = count_retraces_many([folder / "main.py"], cwd=folder)
    assert not run.raised, run.summary()
    outcome = dict(line.split(" ", 1) for line in run.stdout.splitlines())
    raised = {k for k, v in outcome.items() if v.startswith("Non-hashable static arguments")}
    assert set(outcome) == {"plain", "stiff", "hashed", "grid", "schedule"}, run.summary()
    assert raised == {"plain", "stiff"}
    marked = {
        line for _, line, code in expectations(FIXTURES / "unhashable_by_eq") if code == "RTL203"
    }
    source = (FIXTURES / "unhashable_by_eq" / "main.py").read_text(encoding="utf-8").splitlines()
    assert {source[line - 2].split('"')[1] for line in marked} == raised


@_by_batch(sorted(PER_STEP))
def test_mixed_fixture_retraces_exactly_the_defs_its_findings_are_about(
    name: str, runs: dict[int, dict[Path, RetraceReport]]
) -> None:
    short, long = runs[2][FIXTURES / name], runs[4][FIXTURES / name]
    assert not short.raised and not long.raised, short.summary() + long.summary()
    traced = {_def(f, name): n for f, n in long.traces.items() if f.file}
    before = {_def(f, name): n for f, n in short.traces.items() if f.file}
    grows = {where for where, n in traced.items() if n > before.get(where, 0)}
    assert grows == PER_STEP[name], long.summary()
    assert all(traced[where] == 1 for where in traced.keys() - grows), long.summary()


def _def(function: TracedFunction, fixture: str) -> str:
    path = Path(function.file)
    own = (FIXTURES / fixture).resolve() in path.resolve().parents
    return f"{path.name}:{function.line if own else function.name}"


_COUNT_PMAPPED = """
from collections import Counter

import main
import sampler

traces = Counter()


def counted(fn):
    def body(self, *args):
        traces[fn.__name__] += 1  # runs only while JAX traces
        return fn(self, *args)

    body.__name__ = fn.__name__
    return body


sampler.Sampler.ddim_step = counted(sampler.Sampler.ddim_step)
sampler.Refiner.refine = counted(sampler.Refiner.refine)
main.run(int(sys.argv[1]))
print(traces["ddim_step"], traces["refine"])
"""


def test_pmap_takes_one_objects_bound_method_as_one_function(tmp_path: Path) -> None:
    """What the pmap findings of pmap_of_bound_methods claim (jax 0.10.2 runs pmap as a jit of a
    function of its own, so the cache-miss log names no def of the fixture): pmap of `self.ddim_step`
    built in each call of `sample_loop` on one sampler traces a fixed number of times, pmap of a new
    Refiner's `refine` once per step."""
    counts = [
        tuple(int(n) for n in out.split())
        for out in _counted_output(_COUNT_PMAPPED, "pmap_of_bound_methods", ("2", "4"), tmp_path)
    ]
    (steps_short, refine_short), (steps_long, refine_long) = counts
    assert steps_short == steps_long  # does not grow with the steps: no finding claims it
    assert refine_long - refine_short == 2  # one more per step: the RTL301 at main.py:16


def _counted_output(
    script_text: str, fixture: str, steps: Iterable[str], tmp_path: Path
) -> list[str]:
    """The last line a counting script prints, run on ``fixture`` (its modules importable) once per
    number of steps, each run in a process of its own: a run must not find the fixture's modules,
    and their jits, already imported by another."""
    folder = FIXTURES / fixture
    script = tmp_path / "count.py"
    head = f"import sys\n\nsys.path.insert(0, {str(folder)!r})\n"
    script.write_text(head + script_text, encoding="utf-8")
    lines = []
    for n in steps:
        [run] = count_retraces_many([script], cwd=folder, argv=[n])
        assert not run.raised, run.summary()
        lines.append(run.stdout.splitlines()[-1])
    return lines


# Counts the traces of each jitted object (its body runs only while JAX traces), by the wrapped
# function's qualified name: the head of a script that patches the transforms, runs a fixture, prints.
_COUNTING = """
import functools
import json
import sys

import jax

made, traces = [], []


def counting(transform):
    def wrap(fn, *args, **kwargs):
        index = len(made)
        made.append(fn.__qualname__)
        traces.append(0)

        @functools.wraps(fn)
        def body(*a, **k):
            traces[index] += 1  # runs only while JAX traces
            return fn(*a, **k)

        return transform(body, *args, **kwargs)

    return wrap
"""

_COUNT_PER_OBJECT = (
    _COUNTING
    + """
from trainer import parallel

jax.jit = counting(jax.jit)
parallel.pmap = counting(parallel.pmap)
import main

main.main(int(sys.argv[1]))
print(json.dumps([[name, n] for name, n in zip(made, traces) if "make_" in name]))
"""
)


def test_jits_from_two_calls_of_a_factory_trace_once_each(tmp_path: Path) -> None:
    """What jits_from_two_calls_of_a_factory_negative claims by carrying no RTL404: `key` passed by
    keyword to one step and by position to another step built by another call of the same factory
    (a jit, a pmap through another module's alias, names in a function and attributes of a class)
    traces each of the six objects once: they share no cache, so how each is called costs nothing.
    The cache-miss log cannot tell two objects of one def apart, nor see pmap's, so the bodies count."""
    [out] = _counted_output(
        _COUNT_PER_OBJECT, "jits_from_two_calls_of_a_factory_negative", ["3"], tmp_path
    )
    counted = json.loads(out)
    names = sorted(name for name, _ in counted)
    assert (
        names
        == ["make_sharded_step.<locals>.update"] * 2 + ["make_update_step.<locals>.update"] * 4
    )
    assert [n for _, n in counted] == [1] * 6


def test_keyword_advice_saves_a_trace_only_between_calls_of_the_same_parameters(
    tmp_path: Path,
) -> None:
    """What keyword_flips_among_other_keywords claims: following RTL404's advice at greedy's call
    (the pop ratio by keyword, as A* passes it) saves `build` a trace; the same advice at the calls of
    the bidirectional search, which pass `with_costs=` where A* passes `emit_signature=`, saves none,
    so no finding gives it there."""
    fixture = FIXTURES / "keyword_flips_among_other_keywords"
    advice = {
        "as_written": {},
        "bidirectional_by_keyword": {
            "bidirectional.py": [
                ("pop_ratio,\n", "pop_ratio=pop_ratio,\n"),
                ("min_pop,\n", "min_pop=min_pop,\n"),
            ]
        },
        "greedy_by_keyword": {"greedy.py": [("pop_ratio,  #", "pop_ratio=pop_ratio,  #")]},
    }
    scripts = []
    for name, edits in advice.items():
        folder = tmp_path / name
        shutil.copytree(fixture, folder)
        for module, replacements in edits.items():
            path = folder / "search" / module
            text = path.read_text(encoding="utf-8")
            for old, new in replacements:
                assert old in text
                text = text.replace(old, new)
            path.write_text(text, encoding="utf-8")
        scripts.append(folder / "main.py")
    reports = count_retraces_many(scripts, cwd=tmp_path, argv=["2"])
    builds = {}
    for name, report in zip(advice, reports, strict=True):
        assert not report.raised, report.summary()
        builds[name] = sum(n for f, n in report.traces.items() if f.name == "build")
    assert builds == {"as_written": 3, "bidirectional_by_keyword": 3, "greedy_by_keyword": 2}


_COUNT_KEPT_JITS = (
    _COUNTING
    + """
jax.jit = counting(jax.jit)
import main

main.rollout(int(sys.argv[1]))
print(json.dumps(sorted(zip(made, traces))))
"""
)


def test_jits_kept_per_distribution_trace_once_each(tmp_path: Path) -> None:
    """What jits_kept_per_distribution_negative claims by carrying no RTL301: the picklable jit
    wrapper class jits the sampler of each of the three distributions (the composite and its two
    parts, built in a comprehension of the constructor) and the greedy action (built under `if not
    hasattr(...)`) once each, with 2 steps as with 4. The cache-miss log cannot tell the three
    samplers (one def) apart, so the bodies count, per jitted object."""
    sampler = "ProbaDist.__init__.<locals>.sample"
    outputs = _counted_output(
        _COUNT_KEPT_JITS, "jits_kept_per_distribution_negative", ("2", "4"), tmp_path
    )
    for out in outputs:
        assert (
            json.loads(out) == [["Policy.greedy_func.<locals>.greedy_func", 1]] + [[sampler, 1]] * 3
        )


def test_conds_in_scanned_bodies_trace_exactly_as_often_as_their_bodies() -> None:
    """``conds_inside_scanned_bodies``: a ``lax.cond`` inside a scan body made per call traces
    its branches once per trace of that body, no more: the scan's RTL301 tells the re-trace,
    and the cond has none of its own (round 17's Kalman filter). The matrix root's eager cond,
    called per draw itself, traces per draw and is reported."""
    draws = 3
    report = count_retraces_many(
        [FIXTURES / "conds_inside_scanned_bodies" / "main.py"], cwd=FIXTURES, argv=[str(draws)]
    )[0]
    assert not report.raised, report.summary()
    traced = {f.name: n for f, n in report.traces.items() if f.file}
    bodies = {"step": ("apply_update", "skip_update"), "backward": ("blend", "<lambda>")}
    for body, branches in bodies.items():
        assert traced[body] == draws, report.summary()
        assert all(traced[branch] == traced[body] for branch in branches), report.summary()
    assert traced["by_eigh"] == traced["by_diagonal"] == draws, report.summary()
    # The findings name the scan bodies and the eager cond's branches, never a scanned cond's.
    claimed = {(name, line) for name, line, _ in _claims(FIXTURES / "conds_inside_scanned_bodies")}
    assert claimed == {("kalman.py", 14), ("kalman.py", 29), ("linalg.py", 8), ("linalg.py", 12)}
