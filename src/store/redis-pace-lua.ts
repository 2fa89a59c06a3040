import { GROWTH_SHARE, SYNC_LAG_MS } from './pace.js';

/*
 * pace.ts in Lua, operation for operation (the same arithmetic in the same order, so both stores
 * give the same answers to the last bit: test/store/redis-store.test.ts replays random sequences on
 * both). A budget's paces live in its `meta` hash, ten fields each, prefixed by the window's letter
 * (r requests, t tokens, i input tokens, o output tokens):
 *   l level   a at   b burst   v rate   n initial   c ceiling   f configured ('1')
 *   u until   s syncedAt   k shrunkAt   h taken (net, so far)
 * An absent `b`, `n`, `c` or `u` is +infinity, an absent `s` or `k` -infinity (Lua cannot read back
 * what `%.17g` writes for them); a pace exists when its `v` does.
 * A lease in flight is a field of the budget's `inf` hash:
 *   at,seq,until,tokens,input,output,m0,m1,m2,m3   (a mark is '' when the pace did not exist then)
 * A window entry's amounts in `amt` are `tokens,input,output` (a plain number: tokens only).
 */
export const PACE_LUA = `
local DIMS = {'r', 't', 'i', 'o'}
local PF = {'l', 'a', 'b', 'v', 'n', 'c', 'f', 'u', 's', 'k', 'h'}
local INF = math.huge
local EPS = 1e-9
local LAG = ${SYNC_LAG_MS}
local GROWTH = ${GROWTH_SHARE}

local function amounts(v)
  if not v then return 0, 0, 0 end
  local t, i, o = string.match(v, '^([^,]*),?([^,]*),?([^,]*)$')
  return tonumber(t) or 0, tonumber(i) or 0, tonumber(o) or 0
end

local function loadPaces(meta)
  local fields = {}
  for _, d in ipairs(DIMS) do for _, f in ipairs(PF) do fields[#fields + 1] = d .. f end end
  local v = redis.call('HMGET', meta, unpack(fields))
  local paces = {}
  for i = 1, 4 do
    local b = (i - 1) * #PF
    if v[b + 4] then
      paces[i] = {
        l = tonumber(v[b + 1]), a = tonumber(v[b + 2]), b = tonumber(v[b + 3]) or INF, v = tonumber(v[b + 4]),
        n = tonumber(v[b + 5]) or INF, c = tonumber(v[b + 6]) or INF, f = v[b + 7] == '1', u = tonumber(v[b + 8]) or INF,
        s = tonumber(v[b + 9]) or -INF, k = tonumber(v[b + 10]) or -INF, h = tonumber(v[b + 11]) or 0,
      }
    end
  end
  return paces
end

local function savePaces(meta, paces, loaded)
  local set, del = {}, {}
  local function put(d, f, x, none)
    if x == none then del[#del + 1] = d .. f else set[#set + 1] = d .. f; set[#set + 1] = num(x) end
  end
  for i, d in ipairs(DIMS) do
    local p = paces[i]
    if p then
      put(d, 'l', p.l); put(d, 'a', p.a); put(d, 'b', p.b, INF); put(d, 'v', p.v); put(d, 'n', p.n, INF)
      put(d, 'c', p.c, INF); put(d, 'u', p.u, INF); put(d, 's', p.s, -INF); put(d, 'k', p.k, -INF); put(d, 'h', p.h)
      set[#set + 1] = d .. 'f'; set[#set + 1] = p.f and '1' or '0'
    elseif loaded[i] then
      for _, f in ipairs(PF) do del[#del + 1] = d .. f end
    end
  end
  if #set > 0 then redis.call('HSET', meta, unpack(set)) end
  if #del > 0 then redis.call('HDEL', meta, unpack(del)) end
end

local function wasLoaded(paces)
  local loaded = {}
  for i = 1, 4 do loaded[i] = paces[i] ~= nil end
  return loaded
end

local function active(p, now) return p.v > 0 or p.u > now end

local function refill(p, now)
  if now <= p.a then return end
  if p.v > 0 then p.l = math.min(p.b, p.l + (now - p.a) * p.v) end
  p.a = now
end

local function waitFor(p, cost, now)
  refill(p, now)
  local need = math.min(cost, p.b)
  if p.l + EPS >= need then return 0 end
  if p.v > 0 then return math.max(1, math.ceil((need - p.l) / p.v)) end
  return p.u - now
end

local function take(p, cost)
  p.l = p.l - cost
  p.h = p.h + cost
  return p.h
end
local function giveBack(p, amount)
  p.l = math.min(p.b, p.l + amount)
  p.h = p.h - amount
end
local function clamp(p) if p.l > p.b then p.l = p.b end end

local function configuredBurst(limit, win, burstMs) return math.min(limit, math.max(1, (limit * burstMs) / win)) end

local function newPace(rate, burst, initial, ceiling, configured, untilT, now)
  return { l = burst, a = now, b = burst, v = rate, n = initial, c = ceiling, f = configured, u = untilT, s = -INF, k = -INF, h = 0 }
end

local function reportedPace(now)
  local p = newPace(0, INF, INF, INF, false, now, now)
  p.l = 0
  return p
end

local function refreshReported(p, R, reset, limit, now)
  refill(p, now)
  if limit and reset > 0 and limit > R then p.v = (limit - R) / reset else p.v = 0 end
  p.b = limit or INF
  p.n = p.b
  if p.v > 0 then p.u = INF else p.u = now + reset end
end

-- sentAt nil: a report as of now. mark nil: the pace did not exist when the lease took its cost
-- (then inflightAfter is what the leases admitted after it still hold).
local function syncPace(p, R, reset, sentAt, mark, inflightAfter, now, ownCap, limit)
  if sentAt and sentAt < p.s then return end
  local level = R
  if sentAt then
    local anchor = sentAt + math.min(LAG, math.max(0, now - sentAt))
    local after
    if mark == nil then after = inflightAfter else after = p.h - mark end
    level = level + (p.v * (now - anchor) - after)
  end
  -- a configured request pace (ownCap) below the account's limit: a report lowers the level, never
  -- raises it past the configured rate's refill (pace.ts syncPace)
  if ownCap and p.f and limit ~= nil and limit > p.c then
    refill(p, now)
    level = math.min(level, p.l)
  end
  p.l = math.min(p.b, level)
  p.a = math.max(p.a, now)
  p.s = sentAt or now
  if p.v == 0 then p.u = now + reset end
end

local function learnBurst(p, R, reset, limit, win, rateLimited)
  if not p.f or limit == nil then return end
  local bucket = R + (reset * limit) / win
  if bucket < p.b then p.b = math.max(1, bucket)
  elseif not rateLimited then
    local grown
    if p.k == -INF then grown = bucket else grown = p.b + p.n * GROWTH end
    p.b = math.min(grown, bucket, p.c)
  end
  clamp(p)
end

local function holdCost(p, R, reset, limit, cost, win)
  if not p.f or limit == nil or cost <= p.b then return end
  local bucket = R + (reset * limit) / win
  p.b = math.max(p.b, math.min(cost, bucket, p.c))
end

local function shrinkBurst(p, sentAt, now)
  if sentAt < p.k then return end
  p.b = math.max(1, p.b / 2)
  p.k = now
  clamp(p)
end

local function regrowBurst(p)
  if p.b < p.n then p.b = math.min(p.n, p.b + p.n * GROWTH) end
end

-- A lease record of the inf hash, or nil.
local function parseLease(rec)
  if not rec then return nil end
  local f = {}
  for x in string.gmatch(rec, '([^,]*),?') do f[#f + 1] = x end
  return {
    at = tonumber(f[1]), seq = tonumber(f[2]), untilT = tonumber(f[3]),
    cost = {1, tonumber(f[4]), tonumber(f[5]), tonumber(f[6])},
    mark = {tonumber(f[7]), tonumber(f[8]), tonumber(f[9]), tonumber(f[10])},
  }
end

-- What the live leases admitted after \`lease\` hold of window d (only asked when its mark is unknown).
local function inflightAfter(inf, lease, d, now)
  if lease.mark[d] ~= nil then return 0 end
  local all = redis.call('HGETALL', inf)
  local n = 0
  for j = 2, #all, 2 do
    local o = parseLease(all[j])
    if o.seq > lease.seq and o.untilT > now then n = n + o.cost[d] end
  end
  return n
end
`;
