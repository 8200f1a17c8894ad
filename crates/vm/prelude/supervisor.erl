%% racewit prelude: supervisor (one_for_one, one_for_all, rest_for_one and
%% simple_one_for_one; restart intensity counted without time, as racewit's
%% time is virtual).
-module(supervisor).
-behaviour(gen_server).
-export([start_link/2, start_link/3, start_child/2, terminate_child/2,
         delete_child/2, restart_child/2, which_children/1, count_children/1,
         check_childspecs/1, get_childspec/2]).
-export([init/1, handle_call/3, handle_cast/2, handle_info/2, terminate/2]).

%% State: {Name, Mod, Args, Strategy, Intensity, Restarts, Children}
%% Children: list of {Id, Pid | undefined, Spec} in start order.
%% Strategy {simple_one_for_one, Template}: children are made on demand from
%% the one template (its start arguments plus start_child's), keyed by pid.

start_link(Mod, Args) -> gen_server:start_link(supervisor, {self, Mod, Args}, []).
start_link(Name, Mod, Args) -> gen_server:start_link(Name, supervisor, {Name, Mod, Args}, []).

start_child(Sup, Spec) -> gen_server:call(Sup, {start_child, Spec}, infinity).
terminate_child(Sup, Id) -> gen_server:call(Sup, {terminate_child, Id}, infinity).
delete_child(Sup, Id) -> gen_server:call(Sup, {delete_child, Id}, infinity).
restart_child(Sup, Id) -> gen_server:call(Sup, {restart_child, Id}, infinity).
which_children(Sup) -> gen_server:call(Sup, which_children, infinity).
count_children(Sup) -> gen_server:call(Sup, count_children, infinity).
get_childspec(Sup, Id) -> gen_server:call(Sup, {get_childspec, Id}, infinity).
check_childspecs(Specs) when is_list(Specs) -> ok.

init({Name, Mod, Args}) ->
    process_flag(trap_exit, true),
    case Mod:init(Args) of
        {ok, {Flags, Specs}} ->
            case flags(Flags) of
                {simple_one_for_one, Intensity} ->
                    case Specs of
                        [Template] ->
                            {ok, {Name, Mod, Args, {simple_one_for_one, normalize(Template)},
                                  Intensity, 0, []}};
                        _ ->
                            {stop, {bad_start_spec, Specs}}
                    end;
                {Strategy, Intensity} ->
                    State0 = {Name, Mod, Args, Strategy, Intensity, 0, []},
                    start_children([normalize(S) || S <- Specs], State0)
            end;
        ignore -> ignore;
        Other -> {stop, {bad_return, {Mod, init, Other}}}
    end.

flags(#{} = F) -> {maps:get(strategy, F, one_for_one), maps:get(intensity, F, 1)};
flags({Strategy, Intensity, _Period}) -> {Strategy, Intensity}.

%% A child spec as OTP stores it: every key, with OTP's defaults (a
%% supervisor child's shutdown is infinity, a worker's 5000; the modules
%% are the start function's module).
normalize(#{id := Id, start := {M, _, _} = Start} = S) ->
    Type = maps:get(type, S, worker),
    #{id => Id, start => Start,
      restart => maps:get(restart, S, permanent),
      shutdown => maps:get(shutdown, S, case Type of supervisor -> infinity; worker -> 5000 end),
      type => Type,
      modules => maps:get(modules, S, [M]),
      significant => maps:get(significant, S, false)};
normalize({Id, Start, Restart, Shutdown, Type, Mods}) ->
    #{id => Id, start => Start, restart => Restart, shutdown => Shutdown, type => Type,
      modules => Mods, significant => false}.

start_children([], State) -> {ok, State};
start_children([Spec | Rest], {N, M, A, St, I, R, Children} = State) ->
    case do_start(Spec) of
        {ok, Pid} ->
            start_children(Rest, {N, M, A, St, I, R, Children ++ [{maps:get(id, Spec), Pid, Spec}]});
        ignore ->
            start_children(Rest, {N, M, A, St, I, R, Children ++ [{maps:get(id, Spec), undefined, Spec}]});
        {error, Reason} ->
            terminate_all(lists:reverse(Children)),
            _ = State,
            {stop, {shutdown, {failed_to_start_child, maps:get(id, Spec), Reason}}}
    end.

do_start(#{start := {M, F, A}}) ->
    try apply(M, F, A) of
        {ok, Pid} when is_pid(Pid) -> {ok, Pid};
        {ok, Pid, _Info} when is_pid(Pid) -> {ok, Pid};
        ignore -> ignore;
        {error, _} = E -> E;
        Other -> {error, Other}
    catch
        _:R -> {error, R}
    end.

handle_call({start_child, Extra}, _From,
            {N, M, A, {simple_one_for_one, Template} = St, I, R, Children} = State) ->
    #{start := {CM, CF, CA}} = Template,
    Spec = Template#{start := {CM, CF, CA ++ Extra}},
    case do_start(Spec) of
        {ok, Pid} -> {reply, {ok, Pid}, {N, M, A, St, I, R, Children ++ [{Pid, Pid, Spec}]}};
        ignore -> {reply, {ok, undefined}, State};
        {error, Reason} -> {reply, {error, Reason}, State}
    end;
handle_call({terminate_child, Id}, _From, {_, _, _, {simple_one_for_one, _}, _, _, _} = State)
  when not is_pid(Id) ->
    {reply, {error, simple_one_for_one}, State};
handle_call({terminate_child, Pid}, _From,
            {N, M, A, {simple_one_for_one, _} = St, I, R, Children} = State) ->
    case lists:keyfind(Pid, 2, Children) of
        {Id, Pid, Spec} ->
            shutdown(Pid, Spec),
            {reply, ok, {N, M, A, St, I, R, lists:keydelete(Id, 1, Children)}};
        %% A pid that is no child: done already if it is dead (as OTP says).
        false ->
            case erlang:is_process_alive(Pid) of
                true -> {reply, {error, not_found}, State};
                false -> {reply, ok, State}
            end
    end;
handle_call({Op, _}, _From, {_, _, _, {simple_one_for_one, _}, _, _, _} = State)
  when Op =:= delete_child; Op =:= restart_child ->
    {reply, {error, simple_one_for_one}, State};
handle_call({get_childspec, _}, _From, {_, _, _, {simple_one_for_one, Template}, _, _, _} = State) ->
    {reply, {ok, Template}, State};
handle_call(which_children, _From, {_, _, _, {simple_one_for_one, _}, _, _, Children} = State) ->
    {reply, [{undefined, Pid, maps:get(type, S), modules(S)} || {_, Pid, S} <- lists:reverse(Children)],
     State};
handle_call({start_child, Spec0}, _From, {N, M, A, St, I, R, Children} = State) ->
    Spec = normalize(Spec0),
    Id = maps:get(id, Spec),
    case lists:keyfind(Id, 1, Children) of
        {Id, Pid, _} when is_pid(Pid) -> {reply, {error, {already_started, Pid}}, State};
        {Id, _, _} -> {reply, {error, already_present}, State};
        false ->
            case do_start(Spec) of
                {ok, Pid} -> {reply, {ok, Pid}, {N, M, A, St, I, R, Children ++ [{Id, Pid, Spec}]}};
                ignore -> {reply, {ok, undefined}, {N, M, A, St, I, R, Children ++ [{Id, undefined, Spec}]}};
                {error, Reason} -> {reply, {error, Reason}, State}
            end
    end;
handle_call({terminate_child, Id}, _From, {N, M, A, St, I, R, Children} = State) ->
    case lists:keyfind(Id, 1, Children) of
        {Id, Pid, Spec} ->
            shutdown(Pid, Spec),
            {reply, ok, {N, M, A, St, I, R, lists:keyreplace(Id, 1, Children, {Id, undefined, Spec})}};
        false -> {reply, {error, not_found}, State}
    end;
handle_call({delete_child, Id}, _From, {N, M, A, St, I, R, Children} = State) ->
    case lists:keyfind(Id, 1, Children) of
        {Id, undefined, _} -> {reply, ok, {N, M, A, St, I, R, lists:keydelete(Id, 1, Children)}};
        {Id, _, _} -> {reply, {error, running}, State};
        false -> {reply, {error, not_found}, State}
    end;
handle_call({restart_child, Id}, _From, {N, M, A, St, I, R, Children} = State) ->
    case lists:keyfind(Id, 1, Children) of
        {Id, undefined, Spec} ->
            case do_start(Spec) of
                {ok, Pid} -> {reply, {ok, Pid}, {N, M, A, St, I, R, lists:keyreplace(Id, 1, Children, {Id, Pid, Spec})}};
                {error, Reason} -> {reply, {error, Reason}, State};
                ignore -> {reply, {ok, undefined}, State}
            end;
        {Id, _, _} -> {reply, {error, running}, State};
        false -> {reply, {error, not_found}, State}
    end;
handle_call(which_children, _From, {_, _, _, _, _, _, Children} = State) ->
    {reply, [{Id, Pid, maps:get(type, S), modules(S)} || {Id, Pid, S} <- lists:reverse(Children)], State};
handle_call(count_children, _From,
            {_, _, _, {simple_one_for_one, #{type := Type}}, _, _, Children} = State) ->
    N = length(Children),
    {Sups, Workers} = case Type of supervisor -> {N, 0}; worker -> {0, N} end,
    {reply, [{specs, 1}, {active, N}, {supervisors, Sups}, {workers, Workers}], State};
handle_call(count_children, _From, {_, _, _, _, _, _, Children} = State) ->
    Active = length([P || {_, P, _} <- Children, is_pid(P)]),
    Sups = length([x || {_, _, #{type := supervisor}} <- Children]),
    Workers = length(Children) - Sups,
    {reply, [{specs, length(Children)}, {active, Active}, {supervisors, Sups}, {workers, Workers}], State};
handle_call({get_childspec, Id}, _From, {_, _, _, _, _, _, Children} = State) ->
    case lists:keyfind(Id, 1, Children) of
        {Id, _, Spec} -> {reply, {ok, Spec}, State};
        false -> {reply, {error, not_found}, State}
    end.

modules(#{modules := Mods}) -> Mods.

handle_cast(_Msg, State) -> {noreply, State}.

handle_info({'EXIT', Pid, Reason}, {N, M, A, St, I, R, Children} = State) ->
    case lists:keyfind(Pid, 2, Children) of
        {Id, Pid, Spec} ->
            Children1 = lists:keyreplace(Id, 1, Children, {Id, undefined, Spec}),
            case restart_needed(maps:get(restart, Spec), Reason) of
                false ->
                    %% A simple_one_for_one child that is not restarted
                    %% is forgotten, whatever its restart type.
                    Children2 = case {St, maps:get(restart, Spec)} of
                                    {{simple_one_for_one, _}, _} -> lists:keydelete(Id, 1, Children1);
                                    {_, temporary} -> lists:keydelete(Id, 1, Children1);
                                    _ -> Children1
                                end,
                    {noreply, {N, M, A, St, I, R, Children2}};
                true when R + 1 > I ->
                    {stop, shutdown, {N, M, A, St, I, R + 1, Children1}};
                true ->
                    restart(St, Id, {N, M, A, St, I, R + 1, Children1})
            end;
        false -> {noreply, State}
    end;
handle_info(_Msg, State) -> {noreply, State}.

restart_needed(permanent, _) -> true;
restart_needed(temporary, _) -> false;
restart_needed(transient, normal) -> false;
restart_needed(transient, shutdown) -> false;
restart_needed(transient, {shutdown, _}) -> false;
restart_needed(transient, _) -> true.

restart({simple_one_for_one, _}, Id, {N, M, A, St, I, R, Children} = State) ->
    {Id, _, Spec} = lists:keyfind(Id, 1, Children),
    case do_start(Spec) of
        {ok, Pid} ->
            {noreply, {N, M, A, St, I, R, lists:keyreplace(Id, 1, Children, {Pid, Pid, Spec})}};
        _ -> {stop, shutdown, State}
    end;
restart(one_for_one, Id, {N, M, A, St, I, R, Children} = State) ->
    {Id, _, Spec} = lists:keyfind(Id, 1, Children),
    case do_start(Spec) of
        {ok, Pid} -> {noreply, {N, M, A, St, I, R, lists:keyreplace(Id, 1, Children, {Id, Pid, Spec})}};
        _ -> {stop, shutdown, State}
    end;
restart(Strategy, Id, {N, M, A, St, I, R, Children} = State) ->
    Affected = case Strategy of
                   one_for_all -> Children;
                   rest_for_one -> lists:dropwhile(fun({CId, _, _}) -> CId =/= Id end, Children)
               end,
    terminate_all(lists:reverse([C || {_, P, _} = C <- Affected, is_pid(P)])),
    Restarted = [case do_start(Spec) of {ok, P} -> {CId, P, Spec}; _ -> {CId, undefined, Spec} end
                 || {CId, _, Spec} <- Affected],
    Kept = [C || {CId, _, _} = C <- Children, not lists:keymember(CId, 1, Affected)],
    _ = State,
    {noreply, {N, M, A, St, I, R, Kept ++ Restarted}}.

terminate(_Reason, {_, _, _, _, _, _, Children}) ->
    terminate_all(lists:reverse(Children)),
    ok.

terminate_all(Children) ->
    lists:foreach(fun({_Id, Pid, Spec}) -> shutdown(Pid, Spec) end, Children).

shutdown(Pid, Spec) when is_pid(Pid) ->
    MRef = erlang:monitor(process, Pid),
    case maps:get(shutdown, Spec) of
        brutal_kill -> exit(Pid, kill);
        _ -> exit(Pid, shutdown)
    end,
    receive
        {'DOWN', MRef, process, Pid, _} -> ok
    end,
    receive
        {'EXIT', Pid, _} -> ok
    after 0 -> ok
    end;
shutdown(_, _) -> ok.
