%% The twin of page_hits_ok: the counter server makes a counter without
%% looking again. Two clients that both find no counter both ask, and the
%% second insert puts the count back to 1: a hit is lost.
%% Expected: confirmed (non_serializable).
-module(page_hits).
-behaviour(gen_server).
-export([start/0, stop/0, hit/1, count/1, test/0]).
-export([init/1, handle_call/3, handle_cast/2]).

-define(SERVER, page_hits).
-define(TAB, page_hits_hits).

start() ->
    {ok, _} = gen_server:start({local, ?SERVER}, ?MODULE, [], []),
    ok.

stop() ->
    gen_server:stop(?SERVER).

hit(Page) ->
    try
        ets:update_counter(?TAB, Page, 1)
%%      ^^^^^^^^^^^^^^^^^ R002 #1 read: both clients find no counter
    catch
        error:badarg ->
            gen_server:call(?SERVER, {make, Page})
    end.

count(Page) ->
    case ets:lookup(?TAB, Page) of
        [{Page, N}] -> N;
        [] -> 0
    end.

init([]) ->
    ets:new(?TAB, [named_table, public, set]),
    {ok, #{}}.

handle_call({make, Page}, _From, State) ->
    {reply, make(Page), State}.

handle_cast(_Msg, State) ->
    {noreply, State}.

make(Page) ->
    ets:insert(?TAB, {Page, 1}),
%%  ^^^^^^^^^^ R002 #1 write: the second request resets the count the first made
    1.

test() ->
    start(),
    Self = self(),
    Pids = [spawn(fun() -> Self ! {self(), hit(home)} end) || _ <- [1, 2]],
    [receive {P, _} -> ok end || P <- Pids],
    N = count(home),
    stop(),
    N.
