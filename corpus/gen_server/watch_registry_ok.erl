%% A watcher server started with proc_lib: its start function registers
%% the process under the module's name, acknowledges, and enters the loop
%% with gen_server:enter_loop/3, which names no server. A second start
%% fails at the register, so the one registered process runs every
%% callback, and it does every write of the public watch table.
%% Expected: R002 filtered (check and insert serialised in the one server).
-module(watch_registry_ok).
-export([start_link/0, init/1, stop/0, watch/1, watched/0, test/0]).
-export([handle_call/3, handle_cast/2, handle_info/2]).

start_link() ->
    proc_lib:start_link(?MODULE, init, [self()]).

init(Parent) ->
    register(?MODULE, self()),
    ets:new(watch_registry, [named_table, public]),
    proc_lib:init_ack(Parent, {ok, self()}),
    gen_server:enter_loop(?MODULE, [], #{}).

stop() ->
    gen_server:stop(?MODULE).

watch(Name) ->
    gen_server:call(?MODULE, {watch, Name}).

watched() ->
    lists:sort(ets:tab2list(watch_registry)).

handle_call({watch, Name}, _From, S) ->
    {reply, do_watch(Name), S}.

do_watch(Name) ->
    case ets:member(watch_registry, {w, Name}) of
%%       ^^^^^^^^^^ R002 #1 read: ets watch_registry/{w, Name}, in the one registered server (filtered)
        true ->
            already;
        false ->
            ets:insert(watch_registry, {{w, Name}, make_ref()}),
%%          ^^^^^^^^^^ R002 #1 write: every write of the table runs in that server
            added
    end.

handle_cast(_Msg, S) ->
    {noreply, S}.

handle_info(_Msg, S) ->
    {noreply, S}.

test() ->
    {ok, _} = start_link(),
    Self = self(),
    Pids = [spawn(fun() -> Self ! {self(), watch(db)} end) || _ <- [1, 2]],
    Got = lists:sort([receive {P, R} -> R end || P <- Pids]),
    N = length(watched()),
    unlink(whereis(?MODULE)),
    stop(),
    {Got, N}.
