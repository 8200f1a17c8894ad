%% Rendered-config cache: render/1 dirty-reads the source row from `config`
%% and dirty-writes the rendered text to `config_render`.  Different tables,
%% so the read and the write never touch the same item.  Expected: filtered.
-module(config_dirty_ok).
-export([setup/0, set/2, render/1, rendered/1, teardown/0, test/0]).

setup() ->
    ok = mnesia:start(),
    lists:foreach(
      fun(T) ->
              case mnesia:create_table(T, [{attributes, [key, value]}]) of
                  {atomic, ok} -> ok;
                  {aborted, {already_exists, T}} -> ok
              end
      end, [config, config_render]),
    ok = mnesia:wait_for_tables([config, config_render], 5000).

teardown() ->
    mnesia:stop().

set(Key, Value) ->
    mnesia:dirty_write({config, Key, Value}).

render(Key) ->
    case mnesia:dirty_read(config, Key) of
%%       ^^^^^^^^^^^^^^^^^ R003 #1 read (filtered): table config
        [{config, Key, Value}] ->
            Text = io_lib:format("~p = ~p", [Key, Value]),
            mnesia:dirty_write({config_render, Key, lists:flatten(Text)}),
%%          ^^^^^^^^^^^^^^^^^^ R003 #1 write (filtered): table config_render, never the same item
            ok;
        [] ->
            {error, unknown_key}
    end.

rendered(Key) ->
    case mnesia:dirty_read(config_render, Key) of
        [{config_render, Key, Text}] -> Text;
        [] -> undefined
    end.

test() ->
    setup(),
    ok = set(pool_size, 8),
    Self = self(),
    Pids = [spawn(fun() -> Self ! {self(), render(pool_size)} end) || _ <- [1, 2]],
    [receive {P, ok} -> ok end || P <- Pids],
    T = rendered(pool_size),
    teardown(),
    T.
