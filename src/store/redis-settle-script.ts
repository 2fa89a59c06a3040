import { FORGET, REPORTS, TRIM } from './redis-budget-scripts.js';
import { PACE_LUA } from './redis-pace-lua.js';
import { luaScript } from './redis-script.js';

// MemoryBudgets.settle in Lua (the keys are described in redis-budget-scripts.ts).

/**
 * KEYS req, tok, amt, lease, meta, inf; ARGV now, leaseId, tokens, input, output (deltas, '' =
 * none), rateLimited ('1' | '0'), default windowMs, then remaining, resetMs, limit for each window.
 */
export const SETTLE = luaScript(PACE_LUA + TRIM + FORGET + REPORTS + `
local req, tok, amt, lease, meta, inf = KEYS[1], KEYS[2], KEYS[3], KEYS[4], KEYS[5], KEYS[6]
local now, leaseId = tonumber(ARGV[1]), ARGV[2]
local delta = {0, tonumber(ARGV[3]) or 0, tonumber(ARGV[4]) or 0, tonumber(ARGV[5]) or 0}
local rateLimited = ARGV[6] == '1'
local win = tonumber(redis.call('HGET', meta, 'win')) or tonumber(ARGV[7])
local reports = readReports(8)
local rec = endLease(lease, inf, leaseId, now)
local paces = loadPaces(meta)
local loaded = wasLoaded(paces)

-- Reconcile (MemoryStore.reconcile): a pace hears of it only without a report of its window.
local extra, any = {0, 0, 0, 0}, false
for d = 2, 4 do
  local p = paces[d]
  local paced = p ~= nil and active(p, now) and reports[d] == nil
  if delta[d] > 0 then
    extra[d] = delta[d]
    any = true
    if paced then refill(p, now); take(p, delta[d]) end
  elseif delta[d] < 0 and rec then
    local back = math.min(-delta[d], rec.cost[d])
    local entry = 'r:' .. leaseId
    local v = redis.call('HGET', amt, entry)
    if v then
      local a = {amounts(v)}
      a[d - 1] = a[d - 1] - back
      redis.call('HSET', amt, entry, num(a[1]) .. ',' .. num(a[2]) .. ',' .. num(a[3]))
      local sums = readSums(meta, tok)
      sums[d - 1] = sums[d - 1] - back
      writeSums(meta, sums)
    end
    if paced and rec.mark[d] ~= nil then refill(p, now); giveBack(p, back) end
  end
end
if any and redis.call('HGET', meta, 'cnt') == '1' then
  local entry = 'c:' .. redis.call('HINCRBY', meta, 'seq', 1) .. ':' .. leaseId
  local sums = readSums(meta, tok)
  redis.call('ZADD', tok, num(now), entry)
  redis.call('HSET', amt, entry, num(extra[2]) .. ',' .. num(extra[3]) .. ',' .. num(extra[4]))
  writeSums(meta, {sums[1] + extra[2], sums[2] + extra[3], sums[3] + extra[4]})
  keep(tok, win)
  keep(amt, win)
end

applyReports(paces, reports, rec, inf, win, rateLimited, now)

if rec and rateLimited then
  -- Told which window ran out: that one. Not told: every window the budget paces.
  local short = false
  for d = 1, 4 do
    if reports[d] and paces[d] and reports[d].R < rec.cost[d] then short = true end
  end
  for d = 1, 4 do
    local p = paces[d]
    local r = reports[d]
    if p and p.f and (not short or (r ~= nil and r.R < rec.cost[d])) then
      shrinkBurst(p, rec.at, now)
      if not r then syncPace(p, 0, 0, rec.at, rec.mark[d], inflightAfter(inf, rec, d, now), now) end
    end
  end
elseif rec then
  for d = 1, 4 do
    if paces[d] and paces[d].f and not reports[d] then regrowBurst(paces[d]) end
  end
end
if rec then
  for d = 1, 4 do
    local r = reports[d]
    if r and paces[d] then holdCost(paces[d], r.R, r.reset, r.limit, rec.cost[d], win) end
  end
end
savePaces(meta, paces, loaded)
local life = win
for d = 1, 4 do if reports[d] then life = math.max(life, reports[d].reset) end end
keep(meta, life)
return 1
`);

