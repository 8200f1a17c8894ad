#!/usr/bin/env escript
%% -*- erlang -*-
%%! -noshell
%%
%% Checks the racewit corpus against its manifest:
%%   * every corpus/<category>/<case>.erl compiles (warnings allowed) and its
%%     module exports test/0;
%%   * test/0 of every module returns under a fresh `erl` within 5 seconds;
%%   * every [[suspect]] names existing files, valid fields, and its read_line /
%%     write_line hold the named call, followed by a `%% ^^^ Rnnn #id read|write`
%%     annotation; every such annotation belongs to a manifest entry;
%%   * entry / setup / teardown functions are exported;
%%   * every corpus file is covered by the manifest.
%%
%% Usage: escript corpus/check_manifest.escript [--no-run] [corpus-dir]
%% Exit status 0 when clean, 1 otherwise.

-mode(compile).

-define(TIMEOUT_S, 5).
-define(PARALLEL, 3).

main(Args) ->
    {Run, Dir} = parse_args(Args, true, default_dir()),
    Manifest = filename:join(Dir, "manifest.toml"),
    Files = lists:sort(filelib:wildcard("*/*.erl", Dir)),
    Tmp = make_tmp(),
    {Tables, ParseErrs} = read_manifest(Manifest),
    Suspects = [T || {suspect, T} <- Tables],
    Explores = [T || {explore, T} <- Tables],
    {Beams, CompileErrs} = compile_all(Dir, Files, Tmp),
    Exports = maps:from_list([{M, exports(B)} || {_F, M, B} <- Beams]),
    ExportErrs = [io_lib:format("~s: module ~s does not export test/0", [F, M])
                  || {F, M, _} <- Beams, not lists:member({test, 0}, maps:get(M, Exports))],
    HeaderErrs = lists:append([check_header(Dir, F) || F <- Files]),
    SuspectErrs = lists:append([check_suspect(Dir, S, Exports) || S <- Suspects]),
    ExploreErrs = lists:append([check_explore(Dir, E, Exports) || E <- Explores]),
    AnnotErrs = check_annotations(Dir, Files, Suspects),
    CoverErrs = check_coverage(Files, Suspects, Explores),
    RunErrs = case Run of
                  true -> run_tests(Tmp, Beams);
                  false -> []
              end,
    Errors = ParseErrs ++ CompileErrs ++ ExportErrs ++ HeaderErrs ++ SuspectErrs
        ++ ExploreErrs ++ AnnotErrs ++ CoverErrs ++ RunErrs,
    _ = os:cmd("rm -rf " ++ Tmp),
    [io:format("error: ~s~n", [E]) || E <- Errors],
    io:format("~b files, ~b suspects, ~b explore cases, ~b errors~n",
              [length(Files), length(Suspects), length(Explores), length(Errors)]),
    halt(case Errors of [] -> 0; _ -> 1 end).

parse_args(["--no-run" | Rest], _Run, Dir) -> parse_args(Rest, false, Dir);
parse_args([Dir | Rest], Run, _) -> parse_args(Rest, Run, Dir);
parse_args([], Run, Dir) -> {Run, Dir}.

default_dir() ->
    filename:dirname(filename:absname(escript:script_name())).

make_tmp() ->
    Tmp = filename:join("/tmp", "racewit-corpus-" ++ os:getpid() ++ "-"
                        ++ integer_to_list(erlang:unique_integer([positive]))),
    ok = filelib:ensure_dir(filename:join(Tmp, "x")),
    Tmp.

%% ---------------------------------------------------------------- manifest

%% Returns {[{suspect | explore | top, Map}], Errors}.  Understands the subset
%% of TOML the manifest uses: comments, [[table]] headers, and key = value
%% with basic strings, integers and booleans.
read_manifest(Path) ->
    case file:read_file(Path) of
        {ok, Bin} ->
            Lines = string:split(binary_to_list(Bin), "\n", all),
            parse_lines(Lines, 1, top, #{}, [], []);
        {error, R} ->
            {[], [io_lib:format("cannot read ~s: ~p", [Path, R])]}
    end.

parse_lines([], _N, Kind, Cur, Acc, Errs) ->
    {lists:reverse(close_table(Kind, Cur, Acc)), lists:reverse(Errs)};
parse_lines([Line0 | Rest], N, Kind, Cur, Acc, Errs) ->
    Line = string:trim(Line0),
    case Line of
        "" -> parse_lines(Rest, N + 1, Kind, Cur, Acc, Errs);
        "#" ++ _ -> parse_lines(Rest, N + 1, Kind, Cur, Acc, Errs);
        "[[" ++ _ ->
            Name = string:trim(Line, both, "[] "),
            NewKind = case Name of
                          "suspect" -> suspect;
                          "explore" -> explore;
                          _ -> {unknown, Name}
                      end,
            Errs1 = case NewKind of
                        {unknown, _} -> [io_lib:format("manifest:~b: unknown table [[~s]]", [N, Name]) | Errs];
                        _ -> Errs
                    end,
            parse_lines(Rest, N + 1, NewKind, #{line => N},
                        close_table(Kind, Cur, Acc), Errs1);
        _ ->
            case parse_kv(Line) of
                {ok, K, V} ->
                    case maps:is_key(K, Cur) of
                        true ->
                            parse_lines(Rest, N + 1, Kind, Cur, Acc,
                                        [io_lib:format("manifest:~b: duplicate key ~s", [N, K]) | Errs]);
                        false ->
                            parse_lines(Rest, N + 1, Kind, Cur#{K => V}, Acc, Errs)
                    end;
                error ->
                    parse_lines(Rest, N + 1, Kind, Cur, Acc,
                                [io_lib:format("manifest:~b: cannot parse ~p", [N, Line]) | Errs])
            end
    end.

close_table(Kind, Cur, Acc) -> [{Kind, Cur} | Acc].

parse_kv(Line) ->
    case string:split(Line, "=") of
        [K0, V0] ->
            K = string:trim(K0),
            V = string:trim(V0),
            case parse_value(V) of
                {ok, Val} -> {ok, list_to_atom(K), Val};
                error -> error
            end;
        _ ->
            error
    end.

parse_value("\"" ++ Rest) -> parse_string(Rest, []);
parse_value("true") -> {ok, true};
parse_value("false") -> {ok, false};
parse_value(S) ->
    case string:to_integer(S) of
        {I, ""} -> {ok, I};
        _ -> error
    end.

parse_string("\\\"" ++ Rest, Acc) -> parse_string(Rest, [$" | Acc]);
parse_string("\\\\" ++ Rest, Acc) -> parse_string(Rest, [$\\ | Acc]);
parse_string("\"", Acc) -> {ok, lists:reverse(Acc)};
parse_string("\"" ++ Tail, Acc) ->
    case string:trim(Tail) of
        "#" ++ _ -> {ok, lists:reverse(Acc)};
        _ -> error
    end;
parse_string([C | Rest], Acc) -> parse_string(Rest, [C | Acc]);
parse_string([], _Acc) -> error.

%% ---------------------------------------------------------------- compile

compile_all(Dir, Files, Tmp) ->
    Results = [compile_one(Dir, F, Tmp) || F <- Files],
    {[B || {ok, B} <- Results], [E || {error, E} <- Results]}.

compile_one(Dir, F, Tmp) ->
    Path = filename:join(Dir, F),
    case compile:file(Path, [return_errors, {outdir, Tmp}, report_warnings]) of
        {ok, Mod} ->
            {ok, {F, Mod, filename:join(Tmp, atom_to_list(Mod) ++ ".beam")}};
        {error, Errs, _Warns} ->
            {error, io_lib:format("~s: does not compile: ~p", [F, Errs])}
    end.

exports(Beam) ->
    {ok, {_, [{exports, Ex}]}} = beam_lib:chunks(Beam, [exports]),
    Ex.

check_header(Dir, F) ->
    {ok, Bin} = file:read_file(filename:join(Dir, F)),
    [First | _] = string:split(binary_to_list(Bin), "\n"),
    case First of
        "%%" ++ _ -> [];
        _ -> [io_lib:format("~s: first line must be the %% header comment", [F])]
    end.

%% ---------------------------------------------------------------- suspects

-define(CATEGORIES, #{"registry" => "R001", "ets" => "R002", "mnesia" => "R003",
                      "spawn_register" => "R004", "global" => "R005",
                      "persistent_term" => "R006", "application_env" => "R007"}).

check_suspect(Dir, S, Exports) ->
    Where = io_lib:format("manifest:~b", [maps:get(line, S)]),
    Required = [file, id, category, read_line, read_call, write_line, write_call,
                verdict, bound, processes, note],
    Missing = [K || K <- Required, not maps:is_key(K, S)],
    case Missing of
        [_ | _] ->
            [io_lib:format("~s: suspect lacks ~p", [Where, Missing])];
        [] ->
            check_suspect_fields(Dir, Where, S, Exports)
    end.

check_suspect_fields(Dir, Where, S, Exports) ->
    #{file := File, id := Id, category := Cat, read_line := RL, read_call := RC,
      write_line := WL, write_call := WC, verdict := Verdict, bound := Bound,
      processes := Procs} = S,
    WFile = maps:get(write_file, S, File),
    Code = maps:get(Cat, ?CATEGORIES, undefined),
    E1 = [io_lib:format("~s: unknown category ~p", [Where, Cat]) || Code =:= undefined],
    E2 = case Verdict of
             "confirmed" ->
                 case maps:get(consequence, S, missing) of
                     C when C =:= "crash"; C =:= "non_serializable"; C =:= "stuck"; C =:= "none" -> [];
                     Other -> [io_lib:format("~s: confirmed needs consequence crash|non_serializable|stuck|none, got ~p", [Where, Other])]
                 end;
             V when V =:= "unconfirmed"; V =:= "filtered" ->
                 [io_lib:format("~s: consequence only goes with confirmed", [Where]) || maps:is_key(consequence, S)];
             Other ->
                 [io_lib:format("~s: unknown verdict ~p", [Where, Other])]
         end,
    E3 = [io_lib:format("~s: bound must be an integer 0..4", [Where])
          || not (is_integer(Bound) andalso Bound >= 0 andalso Bound =< 4)],
    E4 = [io_lib:format("~s: processes must be an integer 1..4", [Where])
          || not (is_integer(Procs) andalso Procs >= 1 andalso Procs =< 4)],
    E5 = check_line(Dir, Where, File, RL, RC, Code, Id, "read"),
    E6 = check_line(Dir, Where, WFile, WL, WC, Code, Id, "write"),
    E7 = lists:append([check_function(Where, K, maps:get(K, S), Exports)
                       || K <- [entry, setup, teardown], maps:is_key(K, S)]),
    E8 = case maps:get(unsupported_call, S, none) of
             none -> [];
             UC -> [io_lib:format("~s: unsupported_call ~p is not m:f/a", [Where, UC])
                    || parse_mfa(UC) =:= error]
         end,
    Reasons = ["bound_exhausted", "all_exhausted", "handled", "unsupported", "budget",
               "no_harness", "harness_crashed", "runs_cut", "not_reached", "serialised"],
    E9 = case maps:get(reason, S, none) of
             none -> [];
             R when Verdict =:= "unconfirmed" ->
                 [io_lib:format("~s: reason ~p is not one of ~p", [Where, R, Reasons])
                  || not lists:member(R, Reasons)];
             _ -> [io_lib:format("~s: reason only goes with unconfirmed", [Where])]
         end,
    Contexts = ["api", "entry", "test", "amplified_test", "continuing_caller"],
    E10 = case maps:get(context, S, none) of
              none -> [];
              Ctx -> [io_lib:format("~s: context ~p is not one of ~p", [Where, Ctx, Contexts])
                      || not lists:member(Ctx, Contexts)]
          end,
    E1 ++ E2 ++ E3 ++ E4 ++ E5 ++ E6 ++ E7 ++ E8 ++ E9 ++ E10.

%% The call's function name must appear on the line, and the next line must be
%% the caret annotation for this suspect id and role.
check_line(Dir, Where, File, N, Call, Code, Id, Role) ->
    case {parse_mfa(Call), file_lines(Dir, File)} of
        {error, _} ->
            [io_lib:format("~s: ~s_call ~p is not m:f/a", [Where, Role, Call])];
        {_, error} ->
            [io_lib:format("~s: no such file ~s", [Where, File])];
        {{_M, F, _A}, Lines} when is_integer(N), N >= 1, N < length(Lines) ->
            Text = lists:nth(N, Lines),
            Next = lists:nth(N + 1, Lines),
            E1 = [io_lib:format("~s: ~s:~b does not contain ~s(: ~s", [Where, File, N, F, Text])
                  || string:find(Text, F ++ "(") =:= nomatch],
            E2 = case annotation(Next) of
                     {Code1, Ids, Role1} when Code1 =:= Code, Role1 =:= Role ->
                         [io_lib:format("~s: annotation under ~s:~b lacks #~b", [Where, File, N, Id])
                          || not lists:member(Id, Ids)];
                     _ ->
                         [io_lib:format("~s: ~s:~b is not followed by a `%% ^^^ ~s #~b ~s` annotation",
                                        [Where, File, N, Code, Id, Role])]
                 end,
            E1 ++ E2;
        _ ->
            [io_lib:format("~s: ~s line ~p out of range in ~s", [Where, Role, N, File])]
    end.

parse_mfa(S) ->
    case string:split(S, ":") of
        [M, FA] ->
            case string:split(FA, "/") of
                [F, A] ->
                    case string:to_integer(A) of
                        {I, ""} when M =/= "", F =/= "" -> {M, F, I};
                        _ -> error
                    end;
                _ -> error
            end;
        _ -> error
    end.

check_function(Where, Key, MFA, Exports) ->
    case parse_mfa(MFA) of
        error ->
            [io_lib:format("~s: ~s ~p is not mod:fun/arity", [Where, Key, MFA])];
        {M, F, A} ->
            case maps:find(list_to_atom(M), Exports) of
                error ->
                    [io_lib:format("~s: ~s ~s: module ~s is not in the corpus", [Where, Key, MFA, M])];
                {ok, Ex} ->
                    [io_lib:format("~s: ~s ~s is not exported", [Where, Key, MFA])
                     || not lists:member({list_to_atom(F), A}, Ex)]
            end
    end.

file_lines(Dir, File) ->
    case file:read_file(filename:join(Dir, File)) of
        {ok, Bin} -> string:split(binary_to_list(Bin), "\n", all);
        {error, _} -> error
    end.

%% `%%   ^^^^ R002 #1 #2 read ...` -> {"R002", [1, 2], "read"}
annotation(Line) ->
    Re = "^\\s*%%\\s*\\^+\\s+(R[0-9]{3})((?:\\s+#[0-9]+)+)\\s+(read|write)\\b",
    case re:run(Line, Re, [{capture, all_but_first, list}]) of
        {match, [Code, Ids, Role]} ->
            {match, IdList} = re:run(Ids, "#([0-9]+)", [global, {capture, all_but_first, list}]),
            {Code, [list_to_integer(I) || [I] <- IdList], Role};
        nomatch ->
            none
    end.

check_annotations(Dir, Files, Suspects) ->
    Known = lists:append([[{maps:get(file, S), maps:get(id, S), "read"},
                           {maps:get(write_file, S, maps:get(file, S)), maps:get(id, S), "write"}]
                          || S <- Suspects, maps:is_key(file, S), maps:is_key(id, S)]),
    lists:append(
      [[io_lib:format("~s:~b: annotation #~b ~s has no [[suspect]] entry", [F, N, Id, Role])
        || {N, Line} <- lists:zip(lists:seq(1, length(Ls)), Ls),
           {_Code, Ids, Role} <- [annotation(Line)],
           Id <- Ids,
           not lists:member({F, Id, Role}, Known)]
       || F <- Files, (Ls = file_lines(Dir, F)) =/= error]).

check_explore(Dir, E, Exports) ->
    Where = io_lib:format("manifest:~b", [maps:get(line, E)]),
    case [K || K <- [file, entry, expect, bound], not maps:is_key(K, E)] of
        [_ | _] = Missing ->
            [io_lib:format("~s: explore lacks ~p", [Where, Missing])];
        [] ->
            #{file := F, entry := Entry, expect := Expect, bound := B} = E,
            [io_lib:format("~s: no such file ~s", [Where, F]) || file_lines(Dir, F) =:= error]
                ++ [io_lib:format("~s: expect must be crash|deadlock|ok", [Where])
                    || not lists:member(Expect, ["crash", "deadlock", "ok"])]
                ++ [io_lib:format("~s: bound must be an integer 0..4", [Where])
                    || not (is_integer(B) andalso B >= 0 andalso B =< 4)]
                ++ check_function(Where, entry, Entry, Exports)
    end.

check_coverage(Files, Suspects, Explores) ->
    Named = lists:append(
              [[maps:get(file, T, none), maps:get(write_file, T, none)] || T <- Suspects ++ Explores]),
    Modules = [M || T <- Suspects ++ Explores, K <- [entry, setup, teardown],
                    {M, _, _} <- [parse_mfa(maps:get(K, T, "none"))]],
    Covered = fun(F) ->
                      lists:member(F, Named)
                          orelse lists:member(filename:basename(F, ".erl"), Modules)
              end,
    [io_lib:format("~s: not in the manifest", [F]) || F <- Files, not Covered(F)]
        ++ [io_lib:format("manifest names ~s, which is not a corpus file", [F])
            || F <- lists:usort(Named), F =/= none, not lists:member(F, Files)].

%% ---------------------------------------------------------------- run test/0

run_tests(Tmp, Beams) ->
    Erl = os:find_executable("erl"),
    Timeout = os:find_executable("timeout"),
    Jobs = [{F, M} || {F, M, _} <- Beams],
    run_batches(Jobs, Erl, Timeout, Tmp, []).

run_batches([], _Erl, _Timeout, _Tmp, Errs) ->
    lists:append(lists:reverse(Errs));
run_batches(Jobs, Erl, Timeout, Tmp, Errs) ->
    {Now, Later} = lists:split(min(?PARALLEL, length(Jobs)), Jobs),
    Self = self(),
    Pids = [spawn_link(fun() -> Self ! {self(), run_one(J, Erl, Timeout, Tmp)} end) || J <- Now],
    Results = [receive {P, R} -> R end || P <- Pids],
    run_batches(Later, Erl, Timeout, Tmp, lists:reverse(Results) ++ Errs).

run_one({F, M}, Erl, Timeout, Tmp) ->
    Cwd = filename:join(Tmp, "run-" ++ atom_to_list(M)),
    ok = filelib:ensure_dir(filename:join(Cwd, "x")),
    Eval = io_lib:format(
             "R = try ~s:test() catch C:E -> {'$crashed', C, E} end, "
             "io:format(\"~~n@@result ~~P~~n\", [R, 12]), "
             "halt(case R of {'$crashed', _, _} -> 3; _ -> 0 end).", [M]),
    Args = [integer_to_list(?TIMEOUT_S), Erl, "-noshell", "-pa", Tmp, "-eval", lists:flatten(Eval)],
    T0 = erlang:monotonic_time(millisecond),
    Port = open_port({spawn_executable, Timeout},
                     [{args, Args}, {cd, Cwd}, exit_status, stderr_to_stdout, binary]),
    {Status, Out} = collect(Port, []),
    Ms = erlang:monotonic_time(millisecond) - T0,
    Result = case re:run(Out, "@@result (.*)", [{capture, all_but_first, list}]) of
                 {match, [R]} -> R;
                 nomatch -> "-"
             end,
    io:format("~-40s ~5b ms  ~s~n", [F, Ms, Result]),
    case Status of
        0 -> [];
        124 -> [io_lib:format("~s: test/0 did not return within ~b s", [F, ?TIMEOUT_S])];
        3 -> [io_lib:format("~s: test/0 raised: ~s", [F, Result])];
        _ -> [io_lib:format("~s: erl exited with status ~b: ~s", [F, Status, tail(Out)])]
    end.

collect(Port, Acc) ->
    receive
        {Port, {data, D}} -> collect(Port, [D | Acc]);
        {Port, {exit_status, S}} -> {S, iolist_to_binary(lists:reverse(Acc))}
    end.

tail(Bin) ->
    Size = byte_size(Bin),
    binary_to_list(binary:part(Bin, max(0, Size - 400), min(400, Size))).
