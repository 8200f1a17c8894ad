-module(shop).
-export([sell/1]).

sell(Item) ->
    mnesia_tally:sale(Item),
    {sold, Item}.
