%% racewit prelude: the application controller, modelled. Applications
%% are described by their resource files (`.app`, `.app.src`), which the
%% loader hands in through `racewit_apps:resource/1`. kernel and stdlib
%% are loaded and started when the node starts. Starting an application
%% loads it, checks that the applications it needs run, and, when it has a
%% `{mod, {M, Args}}`, runs `M:start(normal, Args)` in an application
%% master process (a child of the caller); a process belongs to the
%% application of the nearest master among its ancestors (OTP finds it
%% through the group leader, which children inherit the same way).
%% OTP's own applications besides kernel and stdlib are recorded as
%% started without running their callbacks (their servers are modelled
%% where racewit models them: crypto, logger, mnesia's transactions).
%% The environment is kept in `ac_tab` as OTP keeps it (bif/node_env.rs).
-module(application).
-export([load/1, load/2, unload/1, start/1, start/2, ensure_started/1,
         ensure_started/2, ensure_all_started/1, ensure_all_started/2,
         ensure_all_started/3, stop/1, which_applications/0,
         which_applications/1, loaded_applications/0, get_key/1, get_key/2,
         get_all_key/0, get_all_key/1, get_application/0, get_application/1,
         get_env/1, get_all_env/0, set_env/1, set_env/2,
         info/0, permit/2, start_type/0, takeover/2, get_master/1]).

%%% State: loaded applications (name -> properties) and started ones
%%% ({name, type, master}, most recent first), in the world store.

loaded() ->
    case racewit_world:get({application, loaded}, undefined) of
        undefined ->
            L = maps:from_list([{A, props_of(A)} || A <- [kernel, stdlib]]),
            racewit_world:put({application, loaded}, L),
            L;
        L -> L
    end.

started() ->
    case racewit_world:get({application, started}, undefined) of
        undefined ->
            S = [{stdlib, temporary, undefined}, {kernel, permanent, undefined}],
            racewit_world:put({application, started}, S),
            S;
        S -> S
    end.

put_loaded(L) -> racewit_world:put({application, loaded}, L).
put_started(S) -> racewit_world:put({application, started}, S).

%% The properties of a known application; kernel and stdlib without an
%% installed OTP get OTP 25's.
props_of(App) ->
    case racewit_apps:resource(App) of
        {application, App, Props} when is_list(Props) -> Props;
        _ when App =:= kernel ->
            [{description, "ERTS  CXC 138 10"}, {vsn, "8.5.3"}, {modules, []},
             {registered, []}, {applications, []}, {env, []}];
        _ when App =:= stdlib ->
            [{description, "ERTS  CXC 138 10"}, {vsn, "4.2"}, {modules, []},
             {registered, []}, {applications, [kernel]}, {env, []}];
        _ -> undefined
    end.

%%% Loading

load(App) -> load(App, []).

load({application, App, Props} = Spec, _Distributed) when is_atom(App), is_list(Props) ->
    case do_load(App, Props) of
        {error, {already_loaded, App}} -> {error, {already_loaded, Spec}};
        Other -> Other
    end;
load(App, _Distributed) when is_atom(App) ->
    case maps:is_key(App, loaded()) of
        true -> {error, {already_loaded, App}};
        false ->
            case props_of(App) of
                undefined -> {error, {"no such file or directory", atom_to_list(App) ++ ".app"}};
                Props -> do_load(App, Props)
            end
    end;
load(App, _) -> {error, {bad_application, App}}.

do_load(App, Props) ->
    L = loaded(),
    case maps:is_key(App, L) of
        true -> {error, {already_loaded, App}};
        false ->
            put_loaded(L#{App => Props}),
            Env = proplists:get_value(env, Props, []),
            _ = [application:set_env(App, K, V) || {K, V} <- Env],
            ok
    end.

unload(App) ->
    case lists:keymember(App, 1, started()) of
        true -> {error, {running, App}};
        false ->
            L = loaded(),
            case maps:is_key(App, L) of
                false -> {error, {not_loaded, App}};
                true ->
                    _ = [application:unset_env(App, K) || {K, _} <- application:get_all_env(App)],
                    put_loaded(maps:remove(App, L)),
                    ok
            end
    end.

%%% Starting and stopping

start(App) -> start(App, temporary).

start(App, Type) when is_atom(App) ->
    case ensure_loaded(App) of
        {error, _} = E -> E;
        ok ->
            case lists:keymember(App, 1, started()) of
                true -> {error, {already_started, App}};
                false -> start_loaded(App, Type)
            end
    end;
start(App, _) -> {error, {bad_application, App}}.

ensure_loaded(App) ->
    case load(App) of
        ok -> ok;
        {error, {already_loaded, App}} -> ok;
        E -> E
    end.

start_loaded(App, Type) ->
    Props = maps:get(App, loaded()),
    Needed = proplists:get_value(applications, Props, []),
    Optional = proplists:get_value(optional_applications, Props, []),
    Running = [A || {A, _, _} <- started()],
    case [D || D <- Needed, not lists:member(D, Running), not lists:member(D, Optional)] of
        [Missing | _] -> {error, {not_started, Missing}};
        [] ->
            case starting(App) of
                {wait, Ref} ->
                    receive {racewit_app_started, Ref, App, Res} -> Res end;
                go ->
                    Res = run_start(App, Type, Props),
                    done_starting(App, Res),
                    Res
            end
    end.

%% A second request while the application starts waits for the first's
%% reply, as OTP's controller makes it wait.
starting(App) ->
    Starting = racewit_world:get({application, starting}, #{}),
    case Starting of
        #{App := Waiters} ->
            Ref = make_ref(),
            racewit_world:put({application, starting},
                              Starting#{App => [{self(), Ref} | Waiters]}),
            {wait, Ref};
        _ ->
            racewit_world:put({application, starting}, Starting#{App => []}),
            go
    end.

done_starting(App, Res) ->
    Starting = racewit_world:get({application, starting}, #{}),
    Waiters = maps:get(App, Starting, []),
    racewit_world:put({application, starting}, maps:remove(App, Starting)),
    _ = [Pid ! {racewit_app_started, Ref, App, Res} || {Pid, Ref} <- lists:reverse(Waiters)],
    ok.

run_start(App, Type, Props) ->
    case {proplists:get_value(mod, Props, []), racewit_apps:origin(App)} of
        {{M, Args}, Origin} when Origin =/= otp ->
            Caller = self(),
            Master = spawn(racewit_app_master, init, [App, Type, M, Args, Caller]),
            MRef = erlang:monitor(process, Master),
            receive
                {Master, started, Res} ->
                    erlang:demonitor(MRef, [flush]),
                    case Res of
                        ok -> put_started([{App, Type, Master} | started()]), ok;
                        Error -> Error
                    end;
                {'DOWN', MRef, process, Master, Reason} ->
                    {error, {Reason, {M, start, [normal, Args]}}}
            end;
        _ ->
            put_started([{App, Type, undefined} | started()]),
            ok
    end.

ensure_started(App) -> ensure_started(App, temporary).

ensure_started(App, Type) ->
    case start(App, Type) of
        ok -> ok;
        {error, {already_started, App}} -> ok;
        E -> E
    end.

ensure_all_started(App) -> ensure_all_started(App, temporary).

ensure_all_started(App, Type) -> ensure_all_started(App, Type, serial).

ensure_all_started(Apps, Type, _Mode) when is_list(Apps) ->
    all_started(Apps, Type, []);
ensure_all_started(App, Type, _Mode) ->
    all_started([App], Type, []).

all_started([], _Type, Acc) -> {ok, lists:reverse(Acc)};
all_started([App | Rest], Type, Acc) ->
    case start_tree(App, Type, Acc) of
        {ok, Acc1} -> all_started(Rest, Type, Acc1);
        {error, Reason} ->
            _ = [stop(A) || A <- Acc],
            {error, Reason}
    end.

start_tree(App, Type, Acc) ->
    case lists:keymember(App, 1, started()) of
        true -> {ok, Acc};
        false ->
            case ensure_loaded(App) of
                {error, R} -> {error, {App, R}};
                ok ->
                    Props = maps:get(App, loaded()),
                    Deps = proplists:get_value(applications, Props, []),
                    case deps_started(Deps, Type, Acc) of
                        {error, _} = E -> E;
                        {ok, Acc1} ->
                            case start(App, Type) of
                                ok -> {ok, [App | Acc1]};
                                {error, {already_started, App}} -> {ok, Acc1};
                                {error, R} -> {error, {App, R}}
                            end
                    end
            end
    end.

deps_started([], _Type, Acc) -> {ok, Acc};
deps_started([D | Rest], Type, Acc) ->
    case start_tree(D, Type, Acc) of
        {ok, Acc1} -> deps_started(Rest, Type, Acc1);
        E -> E
    end.

stop(App) ->
    case lists:keyfind(App, 1, started()) of
        false -> {error, {not_started, App}};
        {App, _Type, Master} ->
            put_started(lists:keydelete(App, 1, started())),
            case is_pid(Master) andalso is_process_alive(Master) of
                true ->
                    MRef = erlang:monitor(process, Master),
                    Master ! {racewit_app_stop, self(), MRef},
                    receive
                        {MRef, stopped} -> erlang:demonitor(MRef, [flush]), ok;
                        {'DOWN', MRef, process, _, _} -> ok
                    end;
                false -> ok
            end
    end.

%%% Questions

which_applications() ->
    [{A, desc(A), vsn(A)} || {A, _, _} <- started()].

which_applications(_Timeout) -> which_applications().

loaded_applications() ->
    [{A, desc(A), vsn(A)} || A <- maps:keys(loaded())].

desc(A) -> proplists:get_value(description, maps:get(A, loaded(), []), "").
vsn(A) -> proplists:get_value(vsn, maps:get(A, loaded(), []), "").

-define(KEYS, [description, id, vsn, modules, maxP, maxT, registered,
               included_applications, optional_applications, applications,
               env, mod, start_phases]).

get_key(Key) ->
    case get_application() of
        {ok, App} -> get_key(App, Key);
        undefined -> undefined
    end.

get_key(App, Key) ->
    case maps:find(App, loaded()) of
        error -> undefined;
        {ok, Props} ->
            case lists:member(Key, ?KEYS) of
                true -> {ok, key_value(App, Key, Props)};
                false -> undefined
            end
    end.

key_value(App, env, _Props) -> application:get_all_env(App);
key_value(_App, Key, Props) ->
    case lists:keyfind(Key, 1, Props) of
        {Key, V} -> V;
        false -> key_default(Key)
    end.

key_default(description) -> "";
key_default(id) -> "";
key_default(vsn) -> "";
key_default(maxP) -> infinity;
key_default(maxT) -> infinity;
key_default(mod) -> [];
key_default(start_phases) -> undefined;
key_default(_) -> [].

get_all_key() ->
    case get_application() of
        {ok, App} -> get_all_key(App);
        undefined -> undefined
    end.

get_all_key(App) ->
    case maps:find(App, loaded()) of
        error -> undefined;
        {ok, Props} -> {ok, [{K, key_value(App, K, Props)} || K <- ?KEYS]}
    end.

get_application() -> get_application(self()).

get_application(Pid) when is_pid(Pid) ->
    %% Masters register themselves before their start callback runs: a
    %% process of a starting application already belongs to it.
    Masters = maps:to_list(racewit_world:get({application, masters}, #{})),
    find_app(racewit_world:lineage(Pid), Masters);
get_application(Module) when is_atom(Module) ->
    Found = [A || {A, Props} <- maps:to_list(loaded()),
                  lists:member(Module, proplists:get_value(modules, Props, []))],
    case Found of
        [A | _] -> {ok, A};
        [] -> undefined
    end.

find_app([], _) -> undefined;
find_app([P | Rest], Masters) ->
    case lists:keyfind(P, 1, Masters) of
        {_, App} -> {ok, App};
        false -> find_app(Rest, Masters)
    end.

get_master(App) ->
    case lists:keyfind(App, 1, started()) of
        {App, _, M} when is_pid(M) -> M;
        _ -> undefined
    end.

get_env(Key) ->
    case get_application() of
        {ok, App} -> application:get_env(App, Key);
        undefined -> undefined
    end.

get_all_env() ->
    case get_application() of
        {ok, App} -> application:get_all_env(App);
        undefined -> []
    end.

set_env(Config) -> set_env(Config, []).

set_env(Config, _Opts) when is_list(Config) ->
    _ = [[application:set_env(App, K, V) || {K, V} <- Env] || {App, Env} <- Config],
    ok.

start_type() ->
    case get_application() of
        {ok, _} -> normal;
        undefined -> undefined
    end.

info() ->
    [{loaded, loaded_applications()}, {running, [{A, M} || {A, _, M} <- started()]}].

permit(_App, _Bool) -> ok.

takeover(App, _Type) -> {error, {distribution_not_modelled, App}}.
