%% racewit prelude: gen_event basics (handlers run in the manager process).
-module(gen_event).
-export([start/0, start/1, start_link/0, start_link/1, add_handler/3, add_sup_handler/3,
         delete_handler/3, notify/2, sync_notify/2, call/3, call/4, which_handlers/1,
         stop/1, swap_handler/3, init_it/3]).

start() -> do_start(nolink, self).
start(Name) -> do_start(nolink, Name).
start_link() -> do_start(link, self).
start_link(Name) -> do_start(link, Name).

do_start(Link, Name) ->
    Parent = self(),
    Ref = make_ref(),
    F = fun() -> init_it(Parent, Ref, Name) end,
    Pid = case Link of link -> spawn_link(F); nolink -> spawn(F) end,
    receive
        {'$racewit_ack', Ref, Reply} -> _ = Pid, Reply
    end.

init_it(Parent, Ref, Name) ->
    case Name of
        self -> Parent ! {'$racewit_ack', Ref, {ok, self()}}, loop([]);
        {local, N} ->
            case catch register(N, self()) of
                true -> Parent ! {'$racewit_ack', Ref, {ok, self()}}, loop([]);
                _ -> Parent ! {'$racewit_ack', Ref, {error, {already_started, whereis(N)}}}
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

add_handler(M, Handler, Args) -> rpc(M, {add_handler, Handler, Args}).
add_sup_handler(M, Handler, Args) -> rpc(M, {add_handler, Handler, Args}).
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

loop(Handlers) ->
    receive
        {'$racewit_notify', Event} -> loop(dispatch(Event, Handlers));
        {'$racewit_event_call', From, Tag, Req} ->
            case handle(Req, Handlers) of
                {stop, Reply} -> From ! {Tag, Reply}, exit(normal);
                {Reply, NewHandlers} -> From ! {Tag, Reply}, loop(NewHandlers)
            end;
        Other -> loop(info(Other, Handlers))
    end.

handle({add_handler, H, Args}, Handlers) ->
    case lists:keymember(H, 1, Handlers) of
        true -> {{error, already_present}, Handlers};
        false ->
            case catch apply(hmod(H), init, [Args]) of
                {ok, S} -> {ok, Handlers ++ [{H, S}]};
                {ok, S, _} -> {ok, Handlers ++ [{H, S}]};
                Other -> {Other, Handlers}
            end
    end;
handle({delete_handler, H, Args}, Handlers) ->
    case lists:keyfind(H, 1, Handlers) of
        {H, S} ->
            R = case erlang:function_exported(hmod(H), terminate, 2) of
                    true -> catch apply(hmod(H), terminate, [Args, S]);
                    false -> ok
                end,
            {R, lists:keydelete(H, 1, Handlers)};
        false -> {{error, module_not_found}, Handlers}
    end;
handle({sync_notify, Event}, Handlers) -> {ok, dispatch(Event, Handlers)};
handle({swap_handler, H1, A1, H2, A2}, Handlers) ->
    {R, Hs1} = case handle({delete_handler, H1, A1}, Handlers) of
                   {{error, module_not_found}, Hs} -> {error, Hs};
                   Other -> Other
               end,
    handle({add_handler, H2, {A2, R}}, Hs1);
handle({call, H, Query}, Handlers) ->
    case lists:keyfind(H, 1, Handlers) of
        {H, S} ->
            case catch apply(hmod(H), handle_call, [Query, S]) of
                {ok, Reply, S1} -> {Reply, lists:keyreplace(H, 1, Handlers, {H, S1})};
                {remove_handler, Reply} -> {Reply, lists:keydelete(H, 1, Handlers)};
                Other -> {{error, Other}, Handlers}
            end;
        false -> {{error, bad_module}, Handlers}
    end;
handle(which_handlers, Handlers) -> {[H || {H, _} <- Handlers], Handlers};
handle(stop, Handlers) ->
    lists:foreach(fun({H, S}) ->
                          case erlang:function_exported(hmod(H), terminate, 2) of
                              true -> catch apply(hmod(H), terminate, [stop, S]);
                              false -> ok
                          end
                  end, Handlers),
    {stop, ok}.

hmod({M, _Id}) -> M;
hmod(M) -> M.

dispatch(Event, Handlers) ->
    lists:flatmap(fun({H, S}) ->
                          case catch apply(hmod(H), handle_event, [Event, S]) of
                              {ok, S1} -> [{H, S1}];
                              {ok, S1, _} -> [{H, S1}];
                              remove_handler -> [];
                              _ -> []
                          end
                  end, Handlers).

info(Msg, Handlers) ->
    lists:flatmap(fun({H, S}) ->
                          case erlang:function_exported(hmod(H), handle_info, 2) of
                              true ->
                                  case catch apply(hmod(H), handle_info, [Msg, S]) of
                                      {ok, S1} -> [{H, S1}];
                                      remove_handler -> [];
                                      _ -> [{H, S}]
                                  end;
                              false -> [{H, S}]
                          end
                  end, Handlers).
