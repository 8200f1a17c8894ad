%% racewit prelude: gen_event (handlers run in the manager process, as in
%% OTP; supervised handlers report their removal to their supervisor).
-module(gen_event).
-export([start/0, start/1, start_link/0, start_link/1, add_handler/3, add_sup_handler/3,
         delete_handler/3, notify/2, sync_notify/2, call/3, call/4, which_handlers/1,
         stop/1, swap_handler/3, init_it/4]).

start() -> do_start(nolink, self).
start(Name) -> do_start(nolink, Name).
start_link() -> do_start(link, self).
start_link(Name) -> do_start(link, Name).

do_start(Link, Name) ->
    Starter = self(),
    Ref = make_ref(),
    Pid = case Link of
              link -> spawn_link(fun() -> init_it(Starter, Ref, Name, Starter) end);
              nolink -> spawn(fun() -> init_it(Starter, Ref, Name, self()) end)
          end,
    receive
        {'$racewit_ack', Ref, Reply} -> _ = Pid, Reply
    end.

%% The manager traps exits: a supervising process's exit ends its
%% handlers, its parent's (the process that linked it, or itself when none
%% did) ends it.
init_it(Starter, Ref, Name, Parent) ->
    process_flag(trap_exit, true),
    case Name of
        self -> Starter ! {'$racewit_ack', Ref, {ok, self()}}, loop(Parent, []);
        {local, N} ->
            case catch register(N, self()) of
                true -> Starter ! {'$racewit_ack', Ref, {ok, self()}}, loop(Parent, []);
                _ -> Starter ! {'$racewit_ack', Ref, {error, {already_started, whereis(N)}}}
            end
    end.

where(Pid) when is_pid(Pid) -> Pid;
where(Name) when is_atom(Name) -> whereis(Name);
where({local, Name}) -> whereis(Name).

rpc(M, Req) ->
    case where(M) of
        undefined -> exit({noproc, {gen_event, call, [M, Req]}});
        Pid ->
            MRef = erlang:monitor(process, Pid),
            Pid ! {'$racewit_event_call', self(), MRef, Req},
            receive
                {MRef, Reply} -> erlang:demonitor(MRef, [flush]), Reply;
                {'DOWN', MRef, _, _, Reason} -> exit({Reason, {gen_event, call, [M, Req]}})
            end
    end.

add_handler(M, Handler, Args) -> rpc(M, {add_handler, Handler, Args, false}).
add_sup_handler(M, Handler, Args) -> rpc(M, {add_handler, Handler, Args, self()}).
delete_handler(M, Handler, Args) -> rpc(M, {delete_handler, Handler, Args}).
swap_handler(M, {H1, A1}, {H2, A2}) -> rpc(M, {swap_handler, H1, A1, H2, A2}).
notify(M, Event) ->
    case where(M) of
        undefined -> ok;
        Pid -> Pid ! {'$racewit_notify', Event}, ok
    end.
sync_notify(M, Event) -> rpc(M, {sync_notify, Event}).
call(M, Handler, Query) -> rpc(M, {call, Handler, Query}).
call(M, Handler, Query, _Timeout) -> rpc(M, {call, Handler, Query}).
which_handlers(M) -> rpc(M, which_handlers).
stop(M) -> rpc(M, stop).

%% Handlers are {Id, State, Supervisor}, the last added first (as OTP keeps
%% them: events reach the newest first, deletion takes the newest of equal
%% ids); Supervisor is the process that added it with add_sup_handler, or
%% false. A supervised handler's removal is sent to its supervisor as
%% {gen_event_EXIT, Id, Reason}.
loop(Parent, Handlers) ->
    receive
        {'$racewit_notify', Event} -> loop(Parent, dispatch(Event, Handlers));
        {'$racewit_event_call', From, Tag, Req} ->
            case handle(Req, Handlers) of
                {stop, Reply} ->
                    stop_handlers(Handlers),
                    From ! {Tag, Reply},
                    exit(normal);
                {Reply, NewHandlers} -> From ! {Tag, Reply}, loop(Parent, NewHandlers)
            end;
        {'EXIT', Parent, Reason} when Parent =/= self() ->
            stop_handlers(Handlers),
            exit(Reason);
        {'EXIT', From, Reason} = Exit ->
            Rest = lists:filter(
                     fun({H, S, Sup}) when Sup =:= From ->
                             _ = terminate(H, {stop, Reason}, S, Sup, shutdown),
                             false;
                        (_) -> true
                     end, Handlers),
            loop(Parent, info(Exit, Rest));
        Other -> loop(Parent, info(Other, Handlers))
    end.

handle({add_handler, H, Args, Sup}, Handlers) ->
    add(H, Args, Sup, Handlers);
handle({delete_handler, H, Args}, Handlers) ->
    case lists:keytake(H, 1, Handlers) of
        {value, {H, S, Sup}, Rest} -> {terminate(H, Args, S, Sup, normal), Rest};
        false -> {{error, module_not_found}, Handlers}
    end;
handle({sync_notify, Event}, Handlers) -> {ok, dispatch(Event, Handlers)};
handle({swap_handler, H1, A1, H2, A2}, Handlers) ->
    {R, Sup, Hs1} = case lists:keytake(H1, 1, Handlers) of
                        {value, {H1, S, Sup1}, Rest} ->
                            {terminate(H1, A1, S, Sup1, {swapped, H2, Sup1}), Sup1, Rest};
                        false -> {error, false, Handlers}
                    end,
    case add(H2, {A2, R}, Sup, Hs1) of
        {ok, Hs2} -> {ok, Hs2};
        {What, Hs2} -> {{error, What}, Hs2}
    end;
handle({call, H, Query}, Handlers) ->
    case lists:keyfind(H, 1, Handlers) of
        {H, S, Sup} ->
            case catch apply(hmod(H), handle_call, [Query, S]) of
                {ok, Reply, S1} -> {Reply, lists:keyreplace(H, 1, Handlers, {H, S1, Sup})};
                {remove_handler, Reply} ->
                    _ = terminate(H, remove_handler, S, Sup, normal),
                    {Reply, lists:keydelete(H, 1, Handlers)};
                Other -> {{error, Other}, Handlers}
            end;
        false -> {{error, bad_module}, Handlers}
    end;
handle(which_handlers, Handlers) -> {[H || {H, _, _} <- Handlers], Handlers};
handle(stop, _Handlers) -> {stop, ok}.

add(H, Args, Sup, Handlers) ->
    case is_pid(Sup) of
        true -> link(Sup);
        false -> ok
    end,
    case catch apply(hmod(H), init, [Args]) of
        {ok, S} -> {ok, [{H, S, Sup} | Handlers]};
        {ok, S, _} -> {ok, [{H, S, Sup} | Handlers]};
        Other -> {Other, Handlers}
    end.

%% A handler leaves: its terminate/2 (when it has one) and, when it is
%% supervised, the message to its supervisor.
terminate(H, Args, S, Sup, Reason) ->
    R = case erlang:function_exported(hmod(H), terminate, 2) of
            true -> catch apply(hmod(H), terminate, [Args, S]);
            false -> ok
        end,
    case is_pid(Sup) of
        true -> Sup ! {gen_event_EXIT, H, Reason};
        false -> ok
    end,
    R.

stop_handlers(Handlers) ->
    lists:foreach(fun({H, S, Sup}) ->
                          _ = terminate(H, stop, S, Sup, shutdown),
                          case is_pid(Sup) of
                              true -> unlink(Sup);
                              false -> ok
                          end
                  end, Handlers).

hmod({M, _Id}) -> M;
hmod(M) -> M.

dispatch(Event, Handlers) ->
    lists:flatmap(fun({H, S, Sup}) ->
                          case catch apply(hmod(H), handle_event, [Event, S]) of
                              {ok, S1} -> [{H, S1, Sup}];
                              {ok, S1, _} -> [{H, S1, Sup}];
                              remove_handler ->
                                  _ = terminate(H, remove_handler, S, Sup, normal),
                                  [];
                              {'EXIT', _} = Crash ->
                                  _ = terminate(H, {error, Crash}, S, Sup, Crash),
                                  [];
                              Other ->
                                  _ = terminate(H, {error, Other}, S, Sup, Other),
                                  []
                          end
                  end, Handlers).

info(Msg, Handlers) ->
    lists:flatmap(fun({H, S, Sup}) ->
                          case erlang:function_exported(hmod(H), handle_info, 2) of
                              true ->
                                  case catch apply(hmod(H), handle_info, [Msg, S]) of
                                      {ok, S1} -> [{H, S1, Sup}];
                                      {ok, S1, _} -> [{H, S1, Sup}];
                                      remove_handler ->
                                          _ = terminate(H, remove_handler, S, Sup, normal),
                                          [];
                                      Other ->
                                          _ = terminate(H, {error, Other}, S, Sup, Other),
                                          []
                                  end;
                              false -> [{H, S, Sup}]
                          end
                  end, Handlers).
