%% A consumer that expects its configuration as the first message.  The
%% parent starts the consumer and a producer, then sends the configuration;
%% if the producer's first batch arrives before it, the consumer's init
%% crashes.  Expected: explore crash.
-module(mailbox_order).
-export([start_consumer/1, test/0]).

start_consumer(Parent) ->
    spawn_monitor(fun() -> init(Parent) end).

init(Parent) ->
    receive
        {config, Cfg} -> consume(Parent, Cfg, 0);
        Other -> exit({unexpected_first_message, Other})
    end.

consume(Parent, #{batches := Total} = Cfg, Seen) when Seen < Total ->
    receive
        {batch, Items} when is_list(Items) -> consume(Parent, Cfg, Seen + 1)
    end;
consume(Parent, _Cfg, Seen) ->
    Parent ! {consumed, Seen}.

producer(Consumer, Batches) ->
    [Consumer ! {batch, B} || B <- Batches],
    ok.

test() ->
    {Consumer, Ref} = start_consumer(self()),
    spawn(fun() -> producer(Consumer, [[1, 2], [3]]) end),
    Consumer ! {config, #{batches => 2}},
    receive
        {consumed, N} -> {ok, N};
        {'DOWN', Ref, process, Consumer, Reason} -> {consumer_crashed, element(1, Reason)}
    end.
