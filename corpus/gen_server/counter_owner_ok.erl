%% Counters in a public table. Clients bump existing counters themselves;
%% only the counter server creates them: create/2 asks the server unless it
%% already runs in it (whereis(?MODULE) =:= self()), and there it checks
%% and inserts. A bump never makes a counter, so nothing can come between.
%% Expected: R002 filtered (check and create only in the registered server).
-module(counter_owner_ok).
-behaviour(gen_server).
-export([start/0, stop/0, create/2, bump/1, value/1, test/0]).
-export([init/1, handle_call/3, handle_cast/2]).

start() ->
    {ok, _} = gen_server:start({local, ?MODULE}, ?MODULE, [], []),
    ok.

stop() ->
    gen_server:stop(?MODULE).

create(Name, Initial) ->
    case whereis(?MODULE) =:= self() of
        false ->
            gen_server:call(?MODULE, {create, Name, Initial});
        true ->
            case ets:lookup(owned_counters, Name) of
%%               ^^^^^^^^^^ R002 #1 read: ets owned_counters/<Name>, only in the registered server (filtered)
                [] ->
                    ets:insert(owned_counters, {Name, Initial}),
%%                  ^^^^^^^^^^ R002 #1 write: every creating write runs in that server
                    {ok, Initial};
                [_] ->
                    {error, exists}
            end
    end.

bump(Name) ->
    ets:update_counter(owned_counters, Name, 1).

value(Name) ->
    ets:lookup_element(owned_counters, Name, 2).

init([]) ->
    ets:new(owned_counters, [named_table, public]),
    {ok, #{}}.

handle_call({create, Name, Initial}, _From, S) ->
    {reply, create(Name, Initial), S}.

handle_cast(_Msg, S) ->
    {noreply, S}.

test() ->
    start(),
    Self = self(),
    Pids = [spawn(fun() -> create(hits, 0), bump(hits), Self ! {done, self()} end)
            || _ <- [1, 2]],
    [receive {done, P} -> ok end || P <- Pids],
    V = value(hits),
    stop(),
    V.
