%% Page hit counters in a public table. A client bumps a counter with
%% ets:update_counter/3 and, when the counter is not there yet, asks the
%% counter server to make it. The server tries the update again and
%% inserts only if the counter is still absent, so a counter is made once.
%% Expected: filtered (the server checks the counter again before it writes;
%% its own check and insert are one server's, after finding nothing).
-module(page_hits_ok).
-behaviour(gen_server).
-export([start/0, stop/0, hit/1, count/1, test/0]).
-export([init/1, handle_call/3, handle_cast/2]).

-define(SERVER, page_hits_ok).
-define(TAB, page_hits_ok_hits).

start() ->
    {ok, _} = gen_server:start({local, ?SERVER}, ?MODULE, [], []),
    ok.

stop() ->
    gen_server:stop(?SERVER).

hit(Page) ->
    try
        ets:update_counter(?TAB, Page, 1)
%%      ^^^^^^^^^^^^^^^^^ R002 #1 #2 read (filtered): absent, so the client asks the server
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
    try
        ets:update_counter(?TAB, Page, 1)
%%      ^^^^^^^^^^^^^^^^^ R002 #1 write (filtered): an atomic add in the server
    catch
        error:badarg ->
            ets:insert(?TAB, {Page, 1}),
%%          ^^^^^^^^^^ R002 #2 write (filtered): only if the server's own update found no counter
            1
    end.

test() ->
    start(),
    Self = self(),
    Pids = [spawn(fun() -> Self ! {self(), hit(home)} end) || _ <- [1, 2]],
    [receive {P, _} -> ok end || P <- Pids],
    N = count(home),
    stop(),
    N.
