%% Counters in a public table, created by the counter server as in
%% counter_owner_ok (whereis(?MODULE) =:= self() before the check), but
%% reset/1 puts a counter back to 0 from the caller's process: a reset
%% between the server's check and its insert is overwritten.
%% Expected: R002 reported (a creating write runs outside the server).
-module(counter_owner).
-behaviour(gen_server).
-export([start/0, stop/0, create/2, bump/1, reset/1, value/1, test/0]).
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
            case ets:lookup(shared_counters, Name) of
%%               ^^^^^^^^^^ R002 #1 read: ets shared_counters/<Name>, in the registered server
                [] ->
                    ets:insert(shared_counters, {Name, Initial}),
%%                  ^^^^^^^^^^ R002 #1 write: reset/1 may insert between the check and this
                    {ok, Initial};
                [_] ->
                    {error, exists}
            end
    end.

bump(Name) ->
    ets:update_counter(shared_counters, Name, 1).

reset(Name) ->
    ets:insert(shared_counters, {Name, 0}).

value(Name) ->
    ets:lookup_element(shared_counters, Name, 2).

init([]) ->
    ets:new(shared_counters, [named_table, public]),
    {ok, #{}}.

handle_call({create, Name, Initial}, _From, S) ->
    {reply, create(Name, Initial), S}.

handle_cast(_Msg, S) ->
    {noreply, S}.

test() ->
    start(),
    Self = self(),
    Pids = [spawn(fun() -> F(), bump(hits), Self ! {done, self()} end)
            || F <- [fun() -> create(hits, 5) end, fun() -> reset(hits) end]],
    [receive {done, P} -> ok end || P <- Pids],
    V = value(hits),
    stop(),
    V.
