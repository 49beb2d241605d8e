// Greater Sydney's railway, metro and light rail stations (the transport pack, packs/sydney-transport.pack), so the
// offline planner knows "near Central station" is around a station, not a suburb to look up. A unit test keeps the
// list equal to the pack.
export const STATION_NAMES: readonly string[] = (
  "Allawah|Arlington|Arncliffe|Artarmon|Ashfield|Asquith|Auburn|Banksia|Bankstown|Barangaroo|Bardwell Park|" +
  "Beecroft|Bella Vista|Belmore|Berala|Berowra|Beverly Hills|Bexley North|Birrong|Blacktown|Bondi Junction|" +
  "Bridge Street|Burwood|Cabramatta|Campbelltown|Campsie|Canley Vale|Canterbury|Capitol Square|Caringbah|" +
  "Carlingford|Carlton|Carramar|Castle Hill|Casula|Centenary Square|Central|Central Chalmers Street|" +
  "Central Grand Concourse|Chatswood|Cheltenham|Cherrybrook|Chester Hill|Children's Hospital|Chinatown|" +
  "Church Street|Circular Quay|Clarendon|Clyde|Como|Concord West|Convention|Cronulla|Crows Nest|Croydon|" +
  "Cumberland Hospital|Denistone|Domestic Airport|Doonside|Dulwich Grove|Dulwich Hill|Dundas|ES Marks|East Hills|" +
  "East Richmond|Eastwood|Edgecliff|Edmondson Park|Emu Plains|Engadine|Epping|Exhibition Centre|Fairfield|" +
  "Fennell Street|Fish Market|Flemington|Gadigal|Glebe|Glenfield|Gordon|Granville|Green Square|Guildford|Gymea|" +
  "Harris Park|Harris Street|Hawthorne|Haymarket|Heathcote|Hills Showground|Holsworthy|Homebush|Hornsby|" +
  "Hurlstone Park|Hurstville|Ingleburn|International Airport|Jannali|John Street Square|Jubilee Park|" +
  "Juniors Kingsford|Kellyville|Kensington|Killara|Kings Cross|Kingsford|Kingsgrove|Kingswood|Kirrawee|Kogarah|" +
  "Lakemba|Leichhardt North|Leightonfield|Leppington|Leumeah|Lewisham|Lewisham West|Lidcombe|Lilyfield|Lindfield|" +
  "Liverpool|Loftus|Macarthur|Macdonaldtown|Macquarie Fields|Macquarie Park|Macquarie University|Marayong|Marion|" +
  "Marrickville|Martin Place|Mascot|Meadowbank|Merrylands|Milsons Point|Minto|Miranda|Moore Park|Mortdale|" +
  "Mount Colah|Mount Druitt|Mount Kuring-Gai|Mulgrave|Museum|Narwee|Newtown|Normanhurst|North Ryde|" +
  "North Strathfield|North Sydney|Norwest|Oatley|Olympic Park|Paddy's Markets|Padstow|Panania|Parramatta|" +
  "Pendle Hill|Pennant Hills|Penrith|Penshurst|Petersham|Prince Alfred Square|Punchbowl|Pymble|Pyrmont Bay|QVB|" +
  "Quakers Hill|Randwick|Redfern|Regents Park|Revesby|Rhodes|Richmond|Riverstone|Riverwood|Rockdale|Rooty Hill|" +
  "Rosehill Gardens|Roseville|Rouse Hill|Royal Randwick|Rozelle Bay|Rydalmere|Schofields|Sefton|Seven Hills|" +
  "St James|St Leonards|St Marys|Stanmore|Strathfield|Summer Hill|Surry Hills|Sutherland|Sydenham|Tallawong|" +
  "Taverners Hill|Telopea|Tempe|The Star|Thornleigh|Toongabbie|Town Hall|Tramway Avenue|Turramurra|Turrella|" +
  "UNSW Anzac Parade|UNSW High Street|Victoria Cross|Villawood|Vineyard|Wahroonga|Waitara|Wansey Road|" +
  "Waratah Mills|Warrawee|Warwick Farm|Waterfall|Waterloo|Waverton|Wentworth Park|Wentworthville|Werrington|" +
  "West Ryde|Westmead|Westmead Hospital|Wiley Park|Windsor|Wolli Creek|Wollstonecraft|Woolooware|Wynyard|Yagoona|" +
  "Yallamundi|Yennora"
).split("|");
