%% A hit counter kept in a mnesia table its user creates: the library
%% documents `hits` as a table of {hits, Page, Count} that the application
%% makes, and no code here creates it. hit/1 reads a page's count and writes
%% it back plus one: two hits at once lose one.
%% Expected: R003 confirmed, non_serializable, with the table created first.
-module(user_hits).
-export([hit/1, count/1, test/0]).

hit(Page) ->
    N = case mnesia:dirty_read(hits, Page) of
%%           ^^^^^^^^^^^^^^^^^^ R003 #1 read: mnesia hits/Page (confirmed, non_serializable)
            [{hits, Page, C}] -> C;
            [] -> 0
        end,
    mnesia:dirty_write({hits, Page, N + 1}).
%%  ^^^^^^^^^^^^^^^^^^ R003 #1 write: the second hit's count overwrites the first's

count(Page) ->
    case mnesia:dirty_read(hits, Page) of
        [{hits, Page, C}] -> C;
        [] -> 0
    end.

%% The user's side: it names the table as its configuration says.
test() ->
    test(hits).

test(Tab) ->
    mnesia:start(),
    mnesia:create_table(Tab, [{attributes, [page, count]}]),
    Self = self(),
    Pids = [spawn(fun() -> hit(home), Self ! {done, self()} end) || _ <- [1, 2]],
    [receive {done, P} -> ok end || P <- Pids],
    C = count(home),
    mnesia:stop(),
    C.
