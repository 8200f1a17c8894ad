%% A stock keeper on a named ETS table its user creates: the library
%% documents `pantry` as a public named table the application makes, and no
%% code here makes it. take/1 reads an item's count and writes it back less
%% one: two takes at once lose one.
%% Expected: R002 confirmed, non_serializable, with the table created first.
-module(user_stock).
-export([take/1, left/1, test/0]).

take(Item) ->
    N = case ets:lookup(pantry, Item) of
%%           ^^^^^^^^^^^^^^^^^^^^^^^^ R002 #1 read: ets pantry/Item (confirmed, non_serializable)
            [{Item, C}] -> C;
            [] -> 0
        end,
    ets:insert(pantry, {Item, N - 1}).
%%  ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^ R002 #1 write: the second take's count overwrites the first's

left(Item) ->
    case ets:lookup(pantry, Item) of
        [{Item, C}] -> C;
        [] -> 0
    end.

%% The user's side: it names the table as its configuration says.
test() ->
    test(pantry).

test(Tab) ->
    Tab = ets:new(Tab, [named_table, public]),
    ets:insert(Tab, {apple, 10}),
    Self = self(),
    Pids = [spawn(fun() -> take(apple), Self ! {done, self()} end) || _ <- [1, 2]],
    [receive {done, P} -> ok end || P <- Pids],
    left(apple).
