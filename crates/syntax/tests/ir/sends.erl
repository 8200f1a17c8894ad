-module(sends).
-export([start/0, ping/1, chain/2]).

start() -> Pid = spawn(fun loop/0), register(pinger, Pid), Pid.
ping(Name) -> Name ! {ping, self()}, whereis(Name) ! hello.
chain(A, B) -> A ! B ! msg.
loop() -> receive {ping, P} -> P ! pong, loop() end.
