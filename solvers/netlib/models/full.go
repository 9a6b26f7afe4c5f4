package models

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"os"

	"github.com/coraopt/coraopt/internal/modelcache"
	"github.com/coraopt/coraopt/solvers"
)

// Sources of the FullCollection references.
const (
	srcFullNetlib = "Netlib lp/data readme (MINOS 5.3), agreeing with HiGHS 1.10 and the built-in simplex to 1e-6"
	srcFullCPLEX  = "Netlib lp/data readme, CPLEX column (Bixby), agreeing with HiGHS 1.10 and the built-in simplex to 1e-6"
	srcFullHiGHS  = "agreement of HiGHS 1.10 and the built-in simplex (to 1e-9 relative)"
	srcFullSame   = "STANDATA's published optimum, agreeing with HiGHS 1.10 and the built-in simplex to 1e-6"
)

// fullLP is one model of the Netlib LP collection: objective is the reference in
// coraopt's convention, published the readme's MINOS 5.3 value (NaN where it gives
// none), sha the SHA-256 of the gzipped file.
func fullLP(name string, objective, published float64, sha, source, notes string) Case {
	return Case{Name: name, File: name + ".mps.gz", Kind: LP, Status: solvers.Optimal,
		Objective: objective, Published: published, Source: source, Notes: notes, SHA256: sha}
}

// FullDir returns the directory holding FullCollection's files, or an error saying how
// to provide it (internal/modelcache.NetlibDir).
func FullDir() (string, error) { return modelcache.NetlibDir() }

// VerifyFile checks the file at path against c.SHA256 (nothing to check when it is
// empty): the reference answers hold for that exact file.
func VerifyFile(c Case, path string) error {
	if c.SHA256 == "" {
		return nil
	}
	f, err := os.Open(path)
	if err != nil {
		return fmt.Errorf("netlib %s: %w", c.Name, err)
	}
	defer f.Close()
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		return fmt.Errorf("netlib %s: %w", c.Name, err)
	}
	if got := hex.EncodeToString(h.Sum(nil)); got != c.SHA256 {
		return fmt.Errorf("netlib %s: %s has SHA-256 %s, want %s (another version of the model, or a damaged copy)", c.Name, path, got, c.SHA256)
	}
	return nil
}

// FullCollection returns the Netlib LP collection (netlib lp/data) as the public copy in
// COIN-OR's Data-Netlib repository distributes it: 91 feasible LPs, each as NAME.mps.gz
// with the SHA-256 of that file and its reference optimum. The collection's other seven
// models are not in that copy — QAP8, QAP12, QAP15, STOCFOR3 and TRUSS are distributed
// as generators, PILOT.JA and PILOT.WE are missing from it — and are left out.
//
// References: the readme's MINOS 5.3 value where it agrees with HiGHS 1.10 and the
// built-in simplex to 1e-6 relative; where it does not, the readme's CPLEX value (which
// does agree) or, for PILOT87, the value the two solvers agree on; for STANDGUB, which the
// readme gives none for, STANDATA's (the same model with GUB markers). The slice is new
// on every call.
func FullCollection() []Case {
	cs := fullCollection()
	for k := range cs {
		cs[k].Large = fullLarge[cs[k].Name]
	}
	return cs
}

// fullLarge are the models the built-in simplex took half a CPU-second or more on (before
// this collection's speed work: d2q06c 2.8 s … dfl001 past a minute); tests run them only
// without -short.
var fullLarge = map[string]bool{"d2q06c": true, "dfl001": true, "fit2d": true, "fit2p": true,
	"greenbea": true, "greenbeb": true, "maros-r7": true, "pilot": true, "pilot87": true}

func fullCollection() []Case {
	return []Case{
		fullLP("25fv47", 5.5018458883e+03, 5.5018458883e+03, "4e1b96340294785ddd20fc9f902f2fd4a28761006d65c01a44820550bd4cd6da", srcFullNetlib, ""),
		fullLP("80bau3b", 9.8722419241e+05, 9.8723216072e+05, "4a37a7d0e91bac0c100798819a7ce36b79ad0adfc240c71bb93913bbba8b521f", srcFullCPLEX,
			"the published (MINOS 5.3) value is 8.1e-06 (relative) from the optimum; the readme's CPLEX column gives 9.8722419241e+05"),
		fullLP("adlittle", 2.2549496316e+05, 2.2549496316e+05, "9c9e7581b9157b13ba6985783f4ece702b478b53b813205d14c807aa6e5233c3", srcFullNetlib, ""),
		fullLP("afiro", -4.6475314286e+02, -4.6475314286e+02, "7bf2faf46c75b9feae51b65354d1b86914b4733a2e71e26c1efe9c817df1554e", srcFullNetlib, ""),
		fullLP("agg", -3.5991767287e+07, -3.5991767287e+07, "996b47dffb4aee0160dd0d1261e49794f4f100622c78a71c01dbc57c448f641f", srcFullNetlib, ""),
		fullLP("agg2", -2.0239252356e+07, -2.0239252356e+07, "11fd8393c05cede7e9cb23503da0923c75d416ccb8eb1c659a0451d6dc5a4181", srcFullNetlib, ""),
		fullLP("agg3", 1.0312115935e+07, 1.0312115935e+07, "14b7e8ee5b542b606a685adfefbaa3acbe7a97166057a308f8fe0ae463f1c8ad", srcFullNetlib, ""),
		fullLP("bandm", -1.5862801845e+02, -1.5862801845e+02, "006bc57678525d02e3d975bc4eba26530f127593017f773cc85946ea9c5be45a", srcFullNetlib, ""),
		fullLP("beaconfd", 3.3592485807e+04, 3.3592485807e+04, "b57da9b9351a586426ec1205b3b3d6cd27f6e09888389af6978fc43bd44e03f7", srcFullNetlib, ""),
		fullLP("blend", -3.0812149846e+01, -3.0812149846e+01, "57e8b96633bcb03d7b98ca65880855ecabd3a515dfac6110aaaddd3a1876d244", srcFullNetlib, ""),
		fullLP("bnl1", 1.9776292856e+03, 1.9776292856e+03, "30269766d1d3baa5ed876e3cca02e3ff19df69b504fc0f3918fc1978fb5001f1", srcFullNetlib, ""),
		fullLP("bnl2", 1.8112365404e+03, 1.8112365404e+03, "10b73c3a34ac21ef19c63b5f971c834c1c985fe91256e5d2d3aa566c9cfd984c", srcFullNetlib, ""),
		fullLP("boeing1", -3.3521356751e+02, -3.3521356751e+02, "c3bf482c680274a8377e9d2be8e9376795ed963522e5807e619e3701777a3cd2", srcFullNetlib, ""),
		fullLP("boeing2", -3.1501872802e+02, -3.1501872802e+02, "2f31eeccebde3523cf7377522ac74c5bdf227a187208a1ddbb586afbeadc4335", srcFullNetlib, ""),
		fullLP("bore3d", 1.3730803942e+03, 1.3730803942e+03, "f00a90dc6ed19d3374889e40cd5d0ca3137d41bbbd30a51af166acf653718f4a", srcFullNetlib, ""),
		fullLP("brandy", 1.5185098965e+03, 1.5185098965e+03, "c031499ec59ae4f3a887175b1ee047c60cd5d391fef3855fd6fd1c1c4f3fa914", srcFullNetlib, ""),
		fullLP("capri", 2.6900129138e+03, 2.6900129138e+03, "7d87ac34aad7f5e377efcf61e2cfb332ac255c91af36cce272fb595e47d6b780", srcFullNetlib, ""),
		fullLP("cycle", -5.2263930249e+00, -5.2263930249e+00, "37cc4e17e521fe5a6280406c7062e25e8582f307774713c07749606aba0b2818", srcFullNetlib, ""),
		fullLP("czprob", 2.1851966989e+06, 2.1851966989e+06, "16db567570d9ed4269e7cc0fb20ac6fcebeba7f6b94542020c7a3b758ced845a", srcFullNetlib, ""),
		fullLP("d2q06c", 1.2278423615e+05, 1.2278423615e+05, "988f7c79983196d1e2a8515ea161634bc4021b31063916da299547a8c0024f6f", srcFullNetlib, ""),
		fullLP("d6cube", 3.1549166667e+02, 3.1549166667e+02, "85cf9ceec66139e2ba00100394f0f5ab8e9dae022a86b09df4d4ff43a93a03af", srcFullNetlib, ""),
		fullLP("degen2", -1.4351780000e+03, -1.4351780000e+03, "47ad212b08b5c517cbe169bd6711cdc1051391bf1b30531bcf9893abae498346", srcFullNetlib, ""),
		fullLP("degen3", -9.8729400000e+02, -9.8729400000e+02, "54184bf6c94b75d3c862d7d059ac84e956780d66e761fedfe993786e76daddc8", srcFullNetlib, ""),
		fullLP("dfl001", 1.1266396047e+07, 1.1266400000e+07, "9e6e3e922d4e47c9c34cc58e5eebfc8be9255afa2cd0225edf7fd2a1058c5a79", srcFullCPLEX,
			"the published (MINOS 5.3) value is 3.5e-07 (relative) from the optimum; the readme's CPLEX column gives 1.1266396047e+07"),
		fullLP("e226", -1.1638929066e+01, -1.8751929066e+01, "a150d4e4ca1257844e92cc351e3c4572f074dfdbd71e8de90059216ecd272b01", srcFullNetlib,
			"the objective row has RHS −7.113, i.e. Offset +7.113: the published value excludes it"),
		fullLP("etamacro", -7.5571521774e+02, -7.5571521774e+02, "471f47bacec1d0c351eb0a283ac827a320eaeef8be859970f7721e28158b95ec", srcFullNetlib, ""),
		fullLP("fffff800", 5.5567961165e+05, 5.5567961165e+05, "c6e8781df29802f00c7bce1e7d8d6cef65d28712f47851b039a1d65057013ee1", srcFullNetlib, ""),
		fullLP("finnis", 1.7279096547e+05, 1.7279096547e+05, "7542851bf6c542900fc4fd216155c0d8e8528cbe554ab464ad6ba0d899a81a79", srcFullNetlib, ""),
		fullLP("fit1d", -9.1463780924e+03, -9.1463780924e+03, "17ab61a846b2d97c0d1644b853bb944c0c3baf0cd69fb24f85a1339b59990ea1", srcFullNetlib, ""),
		fullLP("fit1p", 9.1463780924e+03, 9.1463780924e+03, "7312a940d24b10a1728424578bd010e46d08a81e367046c228e7c59b8967730c", srcFullNetlib, ""),
		fullLP("fit2d", -6.8464293294e+04, -6.8464293294e+04, "d2dd1d3be78fb7993a6b34ed28c3bf7fffdb2cdc17e0dbff7b8aa8f61b324515", srcFullNetlib, ""),
		fullLP("fit2p", 6.8464293232e+04, 6.8464293232e+04, "e9484608fb358f7d6a8c351ad544ff0438c33caead9bd602a1a7fa5f9d4032fa", srcFullNetlib, ""),
		fullLP("forplan", -6.6421873953e+02, -6.6421873953e+02, "e18f491632581cf0390de7724274c9d9fbfb2c03652042d09f07cc55626d6966", srcFullNetlib, ""),
		fullLP("ganges", -1.0958573613e+05, -1.0958636356e+05, "ab529312cd1b0de444dff304f390f06c6cf2ea824d24be3523e06b6ec30a46e6", srcFullCPLEX,
			"the published (MINOS 5.3) value is 5.7e-06 (relative) from the optimum; the readme's CPLEX column gives -1.0958573613e+05"),
		fullLP("gfrd-pnc", 6.9022359995e+06, 6.9022359995e+06, "c2b869d4a21f222a3968b2b8042309cfccc699f32f4f94b7feb084612c935a5a", srcFullNetlib, ""),
		fullLP("greenbea", -7.2555248130e+07, -7.2462405908e+07, "dceb7cf5a184e6e8dc68485815660a1269771aef9c401dd61e635f9a64cca266", srcFullCPLEX,
			"the published (MINOS 5.3) value is 1.3e-03 (relative) from the optimum; the readme's CPLEX column gives -7.2555248130e+07"),
		fullLP("greenbeb", -4.3022602612e+06, -4.3021476065e+06, "d3b6eabf2a049592489d3a4d79df32b1b985928f1dd06aa7642ff0e7cafd25a4", srcFullCPLEX,
			"the published (MINOS 5.3) value is 2.6e-05 (relative) from the optimum; the readme's CPLEX column gives -4.3022602612e+06"),
		fullLP("grow15", -1.0687094129e+08, -1.0687094129e+08, "4bf803ee2654e2ce012174ad327210af9453a54c017f313616bda982553ded5d", srcFullNetlib, ""),
		fullLP("grow22", -1.6083433648e+08, -1.6083433648e+08, "799529d386a93f8ca063c6b6d2c15f0bbb80908472906f53ccec7c80c10cf83e", srcFullNetlib, ""),
		fullLP("grow7", -4.7787811815e+07, -4.7787811815e+07, "613ff0e09282ec6da96b5b7292b0855e1da8f3ccc23d6f61dbf7910d06f3499a", srcFullNetlib, ""),
		fullLP("israel", -8.9664482186e+05, -8.9664482186e+05, "45884751c4a7291263f140ffab09ea7e25ad8f2117fc2f5fa0ca34272f8d5b7a", srcFullNetlib, ""),
		fullLP("kb2", -1.7499001299e+03, -1.7499001299e+03, "fd4e89375a650a3a5eb25c1d57c293e1cf9b1791e0d6fa61a0d586b76ba5d516", srcFullNetlib, ""),
		fullLP("lotfi", -2.5264706062e+01, -2.5264706062e+01, "686ed07d12782e85e8e149938924c373d43ac2eafd9de3d27bad713b854fa9bc", srcFullNetlib, ""),
		fullLP("maros", -5.8063743701e+04, -5.8063743701e+04, "43ed8085c435eb559f3bd5b006b19265027995645f8b2157aceb060f78e26036", srcFullNetlib, ""),
		fullLP("maros-r7", 1.4971851665e+06, 1.4971851665e+06, "f566d027f2e4356b8fbf3a1613329bbdbbafc0d02dda0e573e66f2f851398719", srcFullNetlib, ""),
		fullLP("modszk1", 3.2061972906e+02, 3.2061972906e+02, "85f487136b2d4ba8ef181a7db336387d350ef4c6e995f13ed9c0ac84b8d25e99", srcFullNetlib, ""),
		fullLP("nesm", 1.4076036488e+07, 1.4076073035e+07, "502028be26b385f47563a1490b2a74e2ffef139398aaa2bb8aa379c40d0e501a", srcFullCPLEX,
			"the published (MINOS 5.3) value is 2.6e-06 (relative) from the optimum; the readme's CPLEX column gives 1.4076036488e+07"),
		fullLP("perold", -9.3807580773e+03, -9.3807580773e+03, "62614b576ef436e499231307e54d54d9703e4ea374caef85087d8bd4b2c6e9af", srcFullNetlib, ""),
		fullLP("pilot", -5.5748972928e+02, -5.5740430007e+02, "52204ecc3a1905b1cdb194af926b50833e27ba6a36b7e91abcb617b6af7e4dce", srcFullCPLEX,
			"the published (MINOS 5.3) value is 1.5e-04 (relative) from the optimum; the readme's CPLEX column gives -5.5748972928e+02"),
		fullLP("pilot4", -2.5811392641e+03, -2.5811392641e+03, "6d7edf91a97f01f97b86b8e5508f0a3136c94fdcec448a608c11c7471ef0afe1", srcFullNetlib, ""),
		fullLP("pilot87", 3.0171034733e+02, 3.0171072827e+02, "cfc3f98c5cd4a9486ae3b8ac48f1d5045adf38f36e1ba8fb8aedbb8695197602", srcFullHiGHS,
			"the published (MINOS 5.3) value is 1.3e-06 (relative) from the optimum HiGHS and the built-in simplex agree on"),
		fullLP("pilotnov", -4.4972761882e+03, -4.4972761882e+03, "22e45b15e91d3188dd185d22662d185bf44c4428f9d48c4c1e115073d62eb924", srcFullNetlib, ""),
		fullLP("recipe", -2.6661600000e+02, -2.6661600000e+02, "aa6ee6e981003907ba703188685d2ee612aa8cbf599445c458b6f8ab6dd03825", srcFullNetlib, ""),
		fullLP("sc105", -5.2202061212e+01, -5.2202061212e+01, "b2320addf4775365c33e110567df671b25f7a452e68ecc008d83e5dd759bc8d0", srcFullNetlib, ""),
		fullLP("sc205", -5.2202061212e+01, -5.2202061212e+01, "a41b5ca6df66e99504d53768bc6bc09301794c53c58f1da13b52eeb205f9e57a", srcFullNetlib, ""),
		fullLP("sc50a", -6.4575077059e+01, -6.4575077059e+01, "31d687049d391fcae5019f607251ddffd15bd0177b48da74fbb4185b32bfd1f2", srcFullNetlib, ""),
		fullLP("sc50b", -7.0000000000e+01, -7.0000000000e+01, "d1f7547f417bb7499d807d2dae8cfbe6ca4bc790a2a7cd0a9ac05a31ac4e0dbd", srcFullNetlib, ""),
		fullLP("scagr25", -1.4753433061e+07, -1.4753433061e+07, "94e5d7c7242db5ae27dc60798c973a3facd3cf9f77d47d7d2bb1b5e7614db813", srcFullNetlib, ""),
		fullLP("scagr7", -2.3313892548e+06, -2.3313892548e+06, "1d80cf3cb7ff6da78f68b5f335baa7117bd8a3e933132a55b53b6ebda467fa01", srcFullNetlib, ""),
		fullLP("scfxm1", 1.8416759028e+04, 1.8416759028e+04, "ec93a2977ff0233216b1fd85fc0b1fe38497b7862f61377a0a9532d8f7af5695", srcFullNetlib, ""),
		fullLP("scfxm2", 3.6660261565e+04, 3.6660261565e+04, "5d0c6fff211c301c8675d78acc22b97957a06c881661f85b2e6b03166c3d2bf6", srcFullNetlib, ""),
		fullLP("scfxm3", 5.4901254550e+04, 5.4901254550e+04, "84433e044796dc8b478892a8dd023b381f6a371177f2c49e5b6373bee711977f", srcFullNetlib, ""),
		fullLP("scorpion", 1.8781248227e+03, 1.8781248227e+03, "d0a8f273757f4944803d1183b43fb0a19353a5c9217f8e31f0ba376b990df6e8", srcFullNetlib, ""),
		fullLP("scrs8", 9.0429695380e+02, 9.0429998619e+02, "23bb4f6d723559d75ffb0cec901a54f61f1ecf11d5c6720475c9b03b75f4c5f2", srcFullCPLEX,
			"the published (MINOS 5.3) value is 3.4e-06 (relative) from the optimum; the readme's CPLEX column gives 9.0429695380e+02"),
		fullLP("scsd1", 8.6666666743e+00, 8.6666666743e+00, "6114a4838ce69cdc2a3c4398817ed240316a365a8a592b247d751bd5833e5e02", srcFullNetlib, ""),
		fullLP("scsd6", 5.0500000078e+01, 5.0500000078e+01, "35e9422ff19194300c29a15fd96bbb1d7955d788dbb79faef7f5190d840a4b41", srcFullNetlib, ""),
		fullLP("scsd8", 9.0499999993e+02, 9.0499999993e+02, "1f9baa126ba873046b156d0afa61cdd79c5dcb5e4325aaa6dcdf9cf6dacb69be", srcFullNetlib, ""),
		fullLP("sctap1", 1.4122500000e+03, 1.4122500000e+03, "190011fc90d13e51dfe1538a3c2a162dc0131b808bbe1e7a5c6f6fe7f75c6ce8", srcFullNetlib, ""),
		fullLP("sctap2", 1.7248071429e+03, 1.7248071429e+03, "fc9566e1a692803bdb57c3b810ab157050ec332b9fb28ca8d7eec117a98e6ab6", srcFullNetlib, ""),
		fullLP("sctap3", 1.4240000000e+03, 1.4240000000e+03, "d401b8738ecab83704d45981aae4fad32283fd7c923a882ba20116b5c25c77bf", srcFullNetlib, ""),
		fullLP("seba", 1.5711600000e+04, 1.5711600000e+04, "7ce8c3a415bce91d83dc455de85c1ba08a5635b90eff587a878ceb9102c31556", srcFullNetlib, ""),
		fullLP("share1b", -7.6589318579e+04, -7.6589318579e+04, "c2756fc8b38a4340c9c4586dc895d49aa45ecd15773f491f382771091c7bd0c8", srcFullNetlib, ""),
		fullLP("share2b", -4.1573224074e+02, -4.1573224074e+02, "573557d02b54af88d86266ba505df2859264f84362f430c09c09891a823d49a1", srcFullNetlib, ""),
		fullLP("shell", 1.2088253460e+09, 1.2088253460e+09, "be8077d3356f22bc2bd9a8dbf7e647c89a6322015a1d283666a686369b8555b1", srcFullNetlib, ""),
		fullLP("ship04l", 1.7933245380e+06, 1.7933245380e+06, "6a0775f787e44cb74d55f881e358ce58d12f739318aa5e9774ff286cba203eed", srcFullNetlib, ""),
		fullLP("ship04s", 1.7987147004e+06, 1.7987147004e+06, "006b0b7303dd0e98300dcc7e909d6a31e48a889aa261ef24f97354d21158a2dc", srcFullNetlib, ""),
		fullLP("ship08l", 1.9090552114e+06, 1.9090552114e+06, "e0320b0c93ce96edf6e844cefa50c250304b63016e2a2b7f7c93048d42ef9100", srcFullNetlib, ""),
		fullLP("ship08s", 1.9200982105e+06, 1.9200982105e+06, "6f203234486f7ee0970d70ec553b3d474db39e39378a388f1c9090e2d5fd26f4", srcFullNetlib, ""),
		fullLP("ship12l", 1.4701879193e+06, 1.4701879193e+06, "e81d1cba7fc3cbc26bea94f541824c411c11f96d94ee6964ea4345ee09a5c847", srcFullNetlib, ""),
		fullLP("ship12s", 1.4892361344e+06, 1.4892361344e+06, "3712f0f8c220c507c9de3b2a0642cf1c8a262b519e3832c0b70b13d44bbb5ca8", srcFullNetlib, ""),
		fullLP("sierra", 1.5394362184e+07, 1.5394362184e+07, "287fb50a0b278624bed713d6b47a4c3820d52ccd7c0eae7766d67193d05c41b5", srcFullNetlib, ""),
		fullLP("stair", -2.5126695119e+02, -2.5126695119e+02, "5e93434e32ad5ceac61abe7fedbd6a85a2db2813d6fa70f68e96102f3c47cc6c", srcFullNetlib, ""),
		fullLP("standata", 1.2576995000e+03, 1.2576995000e+03, "caf4fa7498d9ceb150696039853f87f683540cc0c7ffa5987ea83e5ae6ffeb4a", srcFullNetlib, ""),
		fullLP("standgub", 1.2576995000e+03, nan, "7e7280ef0c83612ef12091331ac59e542069e143a8ede6f078419f129f47e4c1", srcFullSame,
			"the readme gives no value (MINOS ignores its GUB markers); without them it is STANDATA, same optimum"),
		fullLP("standmps", 1.4060175000e+03, 1.4060175000e+03, "d28409fd495d5cb15f3659f4c1c9a6ea6ff3162f74392271a7c3711f1792bd30", srcFullNetlib, ""),
		fullLP("stocfor1", -4.1131976219e+04, -4.1131976219e+04, "9a2c578541c2bc4030455f6954b75a8ae9b0a2debb4720290afd30f65ea986e2", srcFullNetlib, ""),
		fullLP("stocfor2", -3.9024408538e+04, -3.9024408538e+04, "315adfb8f364fc0eaefc9b86f77ca506b2b859b850492b25e5e21a679d520101", srcFullNetlib, ""),
		fullLP("tuff", 2.9214776509e-01, 2.9214776509e-01, "b11f445adb24f6ffa231ac1a2d81529c9e11dd7b3dba1510fdd04ad0bbdeb226", srcFullNetlib, ""),
		fullLP("vtpbase", 1.2983146246e+05, 1.2983146246e+05, "02ac34591ab6dd9cdc63add7458a3096ddeebef1da0fb750dd54c5b917110b01", srcFullNetlib, ""),
		fullLP("wood1p", 1.4429024116e+00, 1.4429024116e+00, "61c4b1ded06f502fde2cb8a66fedf9bec295606a6e04f24c5680ba8f6ee2d289", srcFullNetlib, ""),
		fullLP("woodw", 1.3044763331e+00, 1.3044763331e+00, "ea9559261e6413baf5097666b879aa5468405839d887f43faedc398105d53fb8", srcFullNetlib, ""),
	}
}
