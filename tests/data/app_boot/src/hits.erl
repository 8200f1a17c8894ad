%% The API: hit(Page) counts a page view with a lookup then an insert on the
%% table the application's supervised owner made, so two concurrent hits of
%% one page can lose one. The table exists only once the application runs.
-module(hits).
-export([hit/1, count/1]).

hit(Page) ->
    case ets:lookup(hits_table, Page) of
        [{Page, N}] -> ets:insert(hits_table, {Page, N + 1});
        [] -> ets:insert(hits_table, {Page, 1})
    end.

count(Page) ->
    case ets:lookup(hits_table, Page) of
        [{Page, N}] -> N;
        [] -> 0
    end.
