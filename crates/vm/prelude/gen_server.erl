%% racewit prelude: gen_server, written for racewit's VM (same messages and
%% return values as OTP's for the common API; no sys/debug support).
-module(gen_server).
-export([start/3, start/4, start_link/3, start_link/4, start_monitor/3, start_monitor/4,
         call/2, call/3, cast/2, reply/2, stop/1, stop/3,
         abcast/2, abcast/3, multi_call/2, enter_loop/3, enter_loop/4, enter_loop/5,
         init_it/6]).

start(Mod, Args, Opts) -> do_start(nolink, self, Mod, Args, Opts).
start(Name, Mod, Args, Opts) -> do_start(nolink, Name, Mod, Args, Opts).
start_link(Mod, Args, Opts) -> do_start(link, self, Mod, Args, Opts).
start_link(Name, Mod, Args, Opts) -> do_start(link, Name, Mod, Args, Opts).
start_monitor(Mod, Args, Opts) -> do_start(monitor, self, Mod, Args, Opts).
start_monitor(Name, Mod, Args, Opts) -> do_start(monitor, Name, Mod, Args, Opts).

do_start(Link, Name, Mod, Args, _Opts) ->
    Parent = self(),
    Ref = make_ref(),
    Fun = fun() -> init_it(Parent, Ref, Name, Mod, Args, Link) end,
    {Pid, MRef} = case Link of
                      link -> {spawn_link(Fun), none};
                      monitor -> spawn_monitor(Fun);
                      nolink -> {spawn(Fun), none}
                  end,
    Wait = erlang:monitor(process, Pid),
    receive
        {'$racewit_ack', Ref, Reply} ->
            erlang:demonitor(Wait, [flush]),
            case {Link, Reply} of
                {monitor, {ok, P}} -> {ok, {P, MRef}};
                _ -> Reply
            end;
        {'DOWN', Wait, process, Pid, Reason} ->
            {error, Reason}
    end.

init_it(Parent, Ref, Name, Mod, Args, _Link) ->
    put('$ancestors', [Parent]),
    put('$initial_call', {Mod, init, 1}),
    case register_name(Name) of
        true ->
            case init_callback(Mod, Args) of
                {ok, State} ->
                    Parent ! {'$racewit_ack', Ref, {ok, self()}},
                    loop(Parent, Name, Mod, State, infinity);
                {ok, State, {continue, C}} ->
                    Parent ! {'$racewit_ack', Ref, {ok, self()}},
                    continue(Parent, Name, Mod, C, State);
                {ok, State, Timeout} ->
                    Parent ! {'$racewit_ack', Ref, {ok, self()}},
                    loop(Parent, Name, Mod, State, Timeout);
                {stop, Reason} ->
                    unregister_name(Name),
                    Parent ! {'$racewit_ack', Ref, {error, Reason}},
                    exit(Reason);
                ignore ->
                    unregister_name(Name),
                    Parent ! {'$racewit_ack', Ref, ignore},
                    exit(normal);
                {'$racewit_crash', Class, Reason, St} ->
                    unregister_name(Name),
                    Parent ! {'$racewit_ack', Ref, {error, crash_reason(Class, Reason, St)}},
                    erlang:raise(Class, Reason, St);
                Else ->
                    Error = {bad_return_value, Else},
                    Parent ! {'$racewit_ack', Ref, {error, Error}},
                    exit(Error)
            end;
        {false, Pid} ->
            Parent ! {'$racewit_ack', Ref, {error, {already_started, Pid}}},
            exit(normal)
    end.

init_callback(Mod, Args) ->
    try Mod:init(Args)
    catch
        throw:R -> R;
        Class:R:St -> {'$racewit_crash', Class, R, St}
    end.

crash_reason(error, R, St) -> {R, St};
crash_reason(exit, R, _) -> R;
crash_reason(throw, R, St) -> {{nocatch, R}, St}.

register_name(self) -> true;
register_name({local, Name}) ->
    try register(Name, self()) of
        true -> true
    catch
        error:_ -> {false, whereis(Name)}
    end;
register_name({global, Name}) -> global:register_name(Name, self());
register_name({via, Mod, Name}) -> Mod:register_name(Name, self()).

unregister_name(self) -> ok;
unregister_name({local, Name}) -> (catch unregister(Name)), ok;
unregister_name(_) -> ok.

loop(Parent, Name, Mod, State, hibernate) ->
    loop(Parent, Name, Mod, State, infinity);
loop(Parent, Name, Mod, State, Timeout) ->
    receive
        Msg -> handle_msg(Msg, Parent, Name, Mod, State)
    after Timeout ->
        handle_msg(timeout, Parent, Name, Mod, State)
    end.

handle_msg({'$gen_call', From, Request}, Parent, Name, Mod, State) ->
    case callback(Mod, handle_call, [Request, From, State]) of
        {reply, Reply, NState} ->
            reply(From, Reply),
            loop(Parent, Name, Mod, NState, infinity);
        {reply, Reply, NState, {continue, C}} ->
            reply(From, Reply),
            continue(Parent, Name, Mod, C, NState);
        {reply, Reply, NState, Timeout} ->
            reply(From, Reply),
            loop(Parent, Name, Mod, NState, Timeout);
        {stop, Reason, Reply, NState} ->
            Res = terminate(Reason, Name, Mod, NState),
            reply(From, Reply),
            exit(Res);
        Other ->
            handle_common_reply(Other, Parent, Name, Mod, State)
    end;
handle_msg({'$gen_cast', Msg}, Parent, Name, Mod, State) ->
    handle_common_reply(callback(Mod, handle_cast, [Msg, State]), Parent, Name, Mod, State);
handle_msg({'$racewit_stop', Reason}, _Parent, Name, Mod, State) ->
    exit(terminate(Reason, Name, Mod, State));
handle_msg({system, From, get_state}, Parent, Name, Mod, State) ->
    reply(From, State),
    loop(Parent, Name, Mod, State, infinity);
handle_msg({system, From, {replace_state, F}}, Parent, Name, Mod, State) ->
    NState = F(State),
    reply(From, NState),
    loop(Parent, Name, Mod, NState, infinity);
handle_msg({system, From, get_status}, Parent, Name, Mod, State) ->
    reply(From, {status, self(), {module, gen_server}, [get(), running, Parent, [], [{data, [{"State", State}]}]]}),
    loop(Parent, Name, Mod, State, infinity);
handle_msg({system, From, _Other}, Parent, Name, Mod, State) ->
    reply(From, ok),
    loop(Parent, Name, Mod, State, infinity);
handle_msg({'EXIT', Parent, Reason}, Parent, Name, Mod, State) ->
    exit(terminate(Reason, Name, Mod, State));
handle_msg(Msg, Parent, Name, Mod, State) ->
    case erlang:function_exported(Mod, handle_info, 2) of
        true ->
            handle_common_reply(callback(Mod, handle_info, [Msg, State]), Parent, Name, Mod, State);
        false ->
            loop(Parent, Name, Mod, State, infinity)
    end.

continue(Parent, Name, Mod, C, State) ->
    handle_common_reply(callback(Mod, handle_continue, [C, State]), Parent, Name, Mod, State).

handle_common_reply(Reply, Parent, Name, Mod, State) ->
    case Reply of
        {noreply, NState} -> loop(Parent, Name, Mod, NState, infinity);
        {noreply, NState, {continue, C}} -> continue(Parent, Name, Mod, C, NState);
        {noreply, NState, Timeout} -> loop(Parent, Name, Mod, NState, Timeout);
        {stop, Reason, NState} -> exit(terminate(Reason, Name, Mod, NState));
        {'$racewit_crash', Class, Reason, St} ->
            terminate(crash_reason(Class, Reason, St), Name, Mod, State),
            erlang:raise(Class, Reason, St);
        Other ->
            Error = {bad_return_value, Other},
            exit(terminate(Error, Name, Mod, State))
    end.

callback(Mod, Fun, Args) ->
    try apply(Mod, Fun, Args)
    catch
        throw:R -> R;
        Class:R:St -> {'$racewit_crash', Class, R, St}
    end.

terminate(Reason, _Name, Mod, State) ->
    case erlang:function_exported(Mod, terminate, 2) of
        true ->
            try Mod:terminate(Reason, State) of
                _ -> Reason
            catch
                Class:R:St -> crash_reason(Class, R, St)
            end;
        false -> Reason
    end.

call(Server, Request) -> do_call(Server, Request, 5000, [Server, Request]).

call(Server, Request, Timeout) -> do_call(Server, Request, Timeout, [Server, Request, Timeout]).

do_call(Server, Request, Timeout, Args) ->
    Self = self(),
    case where(Server) of
        undefined ->
            exit({noproc, {gen_server, call, Args}});
        Self ->
            exit({calling_self, {gen_server, call, Args}});
        Pid ->
            MRef = erlang:monitor(process, Pid),
            Pid ! {'$gen_call', {self(), MRef}, Request},
            receive
                {MRef, Reply} ->
                    erlang:demonitor(MRef, [flush]),
                    Reply;
                {'DOWN', MRef, _, _, Reason} ->
                    exit({Reason, {gen_server, call, Args}})
            after Timeout ->
                erlang:demonitor(MRef, [flush]),
                exit({timeout, {gen_server, call, Args}})
            end
    end.

where(Pid) when is_pid(Pid) -> Pid;
where(Name) when is_atom(Name) -> whereis(Name);
where({local, Name}) -> whereis(Name);
where({Name, Node}) when is_atom(Name), Node =:= node() -> whereis(Name);
where({global, Name}) -> global:whereis_name(Name);
where({via, Mod, Name}) -> Mod:whereis_name(Name).

cast(Server, Request) ->
    case where(Server) of
        undefined -> ok;
        Pid -> Pid ! {'$gen_cast', Request}, ok
    end.

reply({To, Tag}, Reply) ->
    To ! {Tag, Reply},
    ok.

stop(Server) -> stop(Server, normal, infinity).
stop(Server, Reason, _Timeout) ->
    case where(Server) of
        undefined -> exit(noproc);
        Pid ->
            MRef = erlang:monitor(process, Pid),
            Pid ! {'$racewit_stop', Reason},
            receive
                {'DOWN', MRef, _, _, Reason} -> ok;
                {'DOWN', MRef, _, _, Other} -> exit(Other)
            end
    end.

abcast(Name, Request) -> cast(Name, Request), abcast.
abcast(_Nodes, Name, Request) -> cast(Name, Request), abcast.

multi_call(Name, Request) ->
    case whereis(Name) of
        undefined -> {[], [node()]};
        _ -> {[{node(), call(Name, Request)}], []}
    end.

enter_loop(Mod, Opts, State) -> enter_loop(Mod, Opts, State, self, infinity).
enter_loop(Mod, Opts, State, Timeout) when is_integer(Timeout); Timeout =:= infinity ->
    enter_loop(Mod, Opts, State, self, Timeout);
enter_loop(Mod, Opts, State, Name) -> enter_loop(Mod, Opts, State, Name, infinity).
enter_loop(Mod, _Opts, State, Name, Timeout) ->
    Parent = case get('$ancestors') of
                 [P | _] when is_pid(P) -> P;
                 _ -> self()
             end,
    loop(Parent, Name, Mod, State, Timeout).
