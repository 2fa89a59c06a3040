import { luaScript } from './redis-script.js';

/*
 * Spend budgets: per window of a budget (`day:2026-12-02`, `month:2026-12`), three keys in the
 * budget's hash slot:
 *   w      HASH  spent (USD settled), m:<provider:model> (USD by model), a:<threshold> (alert fired)
 *   holds  ZSET  holdId scored by when the hold expires (a process that died holding it)
 *   amt    HASH  holdId -> USD held
 * What a window holds is `spent` plus its live holds; expired holds are dropped on every reservation.
 * ARGV of both scripts: per window, its limit and how long its keys are kept (ms from now).
 */

/**
 * KEYS w1 holds1 amt1 [w2 holds2 amt2]; ARGV now, usd, holdId, holdTtlMs, n, (limit, keepMs) x n.
 * Replies ok, total1[, total2] (after the hold) | no, window index, total before it.
 */
export const RESERVE_SPEND = luaScript(`
local now, usd, id, ttl, n = tonumber(ARGV[1]), tonumber(ARGV[2]), ARGV[3], tonumber(ARGV[4]), tonumber(ARGV[5])
local totals = {}
for i = 1, n do
  local w, holds, amt = KEYS[3 * i - 2], KEYS[3 * i - 1], KEYS[3 * i]
  local expired = redis.call('ZRANGEBYSCORE', holds, '-inf', num(now))
  for _, h in ipairs(expired) do redis.call('HDEL', amt, h) end
  if #expired > 0 then redis.call('ZREMRANGEBYSCORE', holds, '-inf', num(now)) end
  local total = tonumber(redis.call('HGET', w, 'spent') or '0')
  for _, v in ipairs(redis.call('HVALS', amt)) do total = total + tonumber(v) end
  if total + usd > tonumber(ARGV[4 + 2 * i]) then return {'no', tostring(i), num(total)} end
  totals[i] = total
end
local reply = {'ok'}
for i = 1, n do
  local w, holds, amt, keepMs = KEYS[3 * i - 2], KEYS[3 * i - 1], KEYS[3 * i], tonumber(ARGV[5 + 2 * i])
  redis.call('ZADD', holds, num(now + ttl), id)
  redis.call('HSET', amt, id, num(usd))
  redis.call('HSETNX', w, 'spent', '0')
  keep(w, keepMs)
  keep(holds, keepMs)
  keep(amt, keepMs)
  reply[i + 1] = num(totals[i] + usd)
end
return reply
`);

/**
 * KEYS as RESERVE_SPEND; ARGV holdId, actualUsd, model, alerts (comma-separated fractions), n,
 * (limit, keepMs) x n. Ends the hold, adds the spend, and replies the alerts it fired first:
 * window index, threshold, spent after, ... (flat).
 */
export const SETTLE_SPEND = luaScript(`
local id, actual, model, n = ARGV[1], tonumber(ARGV[2]), ARGV[3], tonumber(ARGV[5])
local thresholds = {}
for t in string.gmatch(ARGV[4], '[^,]+') do thresholds[#thresholds + 1] = t end
local fired = {}
for i = 1, n do
  local w, holds, amt, limit, keepMs = KEYS[3 * i - 2], KEYS[3 * i - 1], KEYS[3 * i], tonumber(ARGV[4 + 2 * i]), tonumber(ARGV[5 + 2 * i])
  redis.call('ZREM', holds, id)
  redis.call('HDEL', amt, id)
  if actual > 0 then
    local spent = tonumber(redis.call('HINCRBYFLOAT', w, 'spent', num(actual)))
    redis.call('HINCRBYFLOAT', w, 'm:' .. model, num(actual))
    for _, t in ipairs(thresholds) do
      if spent >= tonumber(t) * limit and redis.call('HSETNX', w, 'a:' .. t, '1') == 1 then
        fired[#fired + 1] = tostring(i)
        fired[#fired + 1] = t
        fired[#fired + 1] = num(spent)
      end
    end
    keep(w, keepMs)
  end
end
return fired
`);
