%% A pool of worker pids: checkout/1 reads the pool's next index with a
%% lookup and stores the one after with an insert, so two checkouts at once
%% hand out the same worker. Only add/2 creates a pool, and the generated
%% harness has none; the module's EUnit test makes one of stand-in workers
%% that spin (`fun F() -> F() end()`, as pool tests do to have live pids)
%% and checks one out. A spinning worker never does a visible action:
%% racewit runs it no further (a busy loop; it stays alive and is killed at
%% the end of the test), and the test runs on. Amplified (its checkout/1
%% made from two processes at once), both get the first worker.
%% Expected: R002 confirmed, non_serializable, from the amplified test.
-module(spin_pool).
-export([start/0, add/2, checkout/1, checkout_test/0, test/0]).

-define(TAB, spin_pool).

start() ->
    ets:new(?TAB, [named_table, public, set]),
    ok.

add(Pool, Workers) ->
    ets:insert(?TAB, {Pool, 0, list_to_tuple(Workers)}).

checkout(Pool) ->
    case ets:lookup(?TAB, Pool) of
%%       ^^^^^^^^^^ R002 #1 read: ets spin_pool/<Pool> (confirmed, non_serializable)
        [{Pool, Next, Workers}] ->
            ets:insert(?TAB, {Pool, (Next + 1) rem tuple_size(Workers), Workers}),
%%          ^^^^^^^^^^ R002 #1 write: a concurrent checkout is lost
            {ok, element(Next + 1, Workers)};
        [] ->
            {error, no_pool}
    end.

%% An EUnit test (without the header, so the module also compiles alone).
checkout_test() ->
    start(),
    Workers = [spawn(fun() -> fun F() -> F() end() end) || _ <- [1, 2, 3]],
    add(p, Workers),
    {ok, W1} = checkout(p),
    W1 = hd(Workers),
    [exit(W, kill) || W <- Workers],
    ets:delete(?TAB),
    ok.

%% Two checkouts at once, under the real erl: usually two workers, now and
%% then the same one twice.
test() ->
    start(),
    Workers = [spawn(fun() -> fun F() -> F() end() end) || _ <- [1, 2, 3]],
    add(p, Workers),
    Self = self(),
    Pids = [spawn(fun() -> Self ! {self(), checkout(p)} end) || _ <- [1, 2]],
    Got = [receive {P, {ok, W}} -> W end || P <- Pids],
    [exit(W, kill) || W <- Workers],
    ets:delete(?TAB),
    length(lists:usort(Got)).
