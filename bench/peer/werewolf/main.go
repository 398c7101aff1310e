// Command peerbench is the driver of docs/performance.md's peer,
// github.com/Zereker/werewolf, in a module of its own: this repository's
// program never imports it, and the peer's source is not here (see
// README.md for where it comes from and how to build this). It plays whole
// random games of the peer engine on one goroutine: 11 players (3 werewolves, seer, witch, guard, hunter, 4
// villagers, dealt by a seeded shuffle), every night role choosing uniformly
// among the living, every living player voting uniformly among the others or
// abstaining; the day's speech is skipped. It prints the games played, the
// games that ended, and the sub-steps.
package main

import (
	"flag"
	"fmt"
	"math/rand/v2"

	ww "github.com/Zereker/werewolf"
	pb "github.com/Zereker/werewolf/proto"
)

var ids = []string{"p1", "p2", "p3", "p4", "p5", "p6", "p7", "p8", "p9", "p10", "p11"}

var deck = []pb.RoleType{
	pb.RoleType_ROLE_TYPE_WEREWOLF, pb.RoleType_ROLE_TYPE_WEREWOLF, pb.RoleType_ROLE_TYPE_WEREWOLF,
	pb.RoleType_ROLE_TYPE_SEER, pb.RoleType_ROLE_TYPE_WITCH, pb.RoleType_ROLE_TYPE_GUARD, pb.RoleType_ROLE_TYPE_HUNTER,
	pb.RoleType_ROLE_TYPE_VILLAGER, pb.RoleType_ROLE_TYPE_VILLAGER, pb.RoleType_ROLE_TYPE_VILLAGER, pb.RoleType_ROLE_TYPE_VILLAGER,
}

func main() {
	games := flag.Int("games", 10000, "games to play")
	seed := flag.Uint64("seed", 1, "seed")
	flag.Parse()
	r := rand.New(rand.NewPCG(*seed, 2))
	roles := make([]pb.RoleType, len(deck))
	alive := make([]int, 0, len(ids))
	ended, steps := 0, 0
	for g := 0; g < *games; g++ {
		copy(roles, deck)
		r.Shuffle(len(roles), func(i, j int) { roles[i], roles[j] = roles[j], roles[i] })
		e := ww.NewEngine(nil)
		for i, id := range ids {
			camp := pb.Camp_CAMP_GOOD
			if roles[i] == pb.RoleType_ROLE_TYPE_WEREWOLF {
				camp = pb.Camp_CAMP_EVIL
			}
			e.AddPlayer(id, roles[i], camp)
		}
		if err := e.Start(); err != nil {
			panic(err)
		}
		refresh := true
		for n := 0; n < 1000 && !e.IsGameOver(); n++ {
			if refresh { // who is alive, read again only after a sub-step with effects
				alive = alive[:0]
				for i, id := range ids {
					if p, _ := e.GetPlayerInfo(id); p.Alive {
						alive = append(alive, i)
					}
				}
			}
			other := func(me int) string { // a living seat other than me, or "" for none
				k := r.IntN(len(alive) + 1)
				if k == len(alive) || alive[k] == me {
					return ""
				}
				return ids[alive[k]]
			}
			use := func(i int, s pb.SkillType, t string) {
				if t != "" {
					_ = e.SubmitSkillUse(&ww.SkillUse{PlayerID: ids[i], Skill: s, TargetID: t})
				}
			}
			switch e.GetCurrentPhase() {
			case pb.PhaseType_PHASE_TYPE_NIGHT_GUARD:
				for _, i := range alive {
					if roles[i] == pb.RoleType_ROLE_TYPE_GUARD {
						use(i, pb.SkillType_SKILL_TYPE_PROTECT, other(-1))
					}
				}
			case pb.PhaseType_PHASE_TYPE_NIGHT_WOLF:
				for _, i := range alive {
					if roles[i] == pb.RoleType_ROLE_TYPE_WEREWOLF {
						use(i, pb.SkillType_SKILL_TYPE_KILL, other(i))
					}
				}
			case pb.PhaseType_PHASE_TYPE_NIGHT_WITCH:
				for _, i := range alive {
					if roles[i] == pb.RoleType_ROLE_TYPE_WITCH {
						switch r.IntN(3) {
						case 0:
							use(i, pb.SkillType_SKILL_TYPE_ANTIDOTE, e.GetNightKillTarget())
						case 1:
							use(i, pb.SkillType_SKILL_TYPE_POISON, other(i))
						}
					}
				}
			case pb.PhaseType_PHASE_TYPE_NIGHT_SEER:
				for _, i := range alive {
					if roles[i] == pb.RoleType_ROLE_TYPE_SEER {
						use(i, pb.SkillType_SKILL_TYPE_CHECK, other(i))
					}
				}
			case pb.PhaseType_PHASE_TYPE_NIGHT_HUNTER, pb.PhaseType_PHASE_TYPE_DAY_HUNTER:
				for i := range ids {
					if roles[i] == pb.RoleType_ROLE_TYPE_HUNTER {
						use(i, pb.SkillType_SKILL_TYPE_SHOOT, other(i))
					}
				}
			case pb.PhaseType_PHASE_TYPE_VOTE:
				for _, i := range alive {
					use(i, pb.SkillType_SKILL_TYPE_VOTE, other(i))
				}
			}
			effects, err := e.EndSubStep()
			if err != nil {
				panic(err)
			}
			refresh = len(effects) > 0
			steps++
		}
		if e.IsGameOver() {
			ended++
		}
	}
	fmt.Println("games", *games, "ended", ended, "steps", steps)
}
